// Failures of MPI, NCCL and CUDA calls, as exceptions that name the call, the group and the code.
#pragma once

#include <stdexcept>
#include <string>

namespace gridlock {

class RuntimeError : public std::runtime_error {
 public:
  // `library` is "MPI", "NCCL" or "CUDA"; `detail` the library's text for `code`.
  RuntimeError(std::string library, std::string call, std::string group, int code,
               const std::string& detail);

  const std::string& library() const { return library_; }
  const std::string& call() const { return call_; }
  const std::string& group() const { return group_; }
  int code() const { return code_; }

 private:
  std::string library_, call_, group_;
  int code_;
};

}  // namespace gridlock
