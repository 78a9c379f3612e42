// A file read in place: its bytes mapped into memory instead of copied into a string.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gridlock::support {

// A regular file's bytes mapped into memory (read-only, private, populated at once): what a
// large file that is read once costs without copying it into a string. Only for files that
// are replaced whole (renamed over), never written in place: a file truncated while mapped
// faults (SIGBUS) when its lost bytes are read.
class MappedFile {
 public:
  // Nothing when it is not a regular file or cannot be mapped (an empty file maps to "").
  static std::optional<MappedFile> open(const std::string& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  std::string_view bytes() const { return {data_, size_}; }

 private:
  MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gridlock::support
