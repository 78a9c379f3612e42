// What the nvcc translation tests share: a directory with the files their command lines name,
// and the real nvcc to prove that it accepts each line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gridlock::test {

using Args = std::vector<std::string>;

std::string join(const Args& v);
std::optional<std::string> readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& text);

// k.cu, pre.h, pre2.h, inc/, inc2/, opts.rsp (-DFROM_FILE -Iinc), and hostcc/gcc: gcc without
// the -V<config> that --qpp-config hands a q++ host compiler. Removed at the end.
class NvccWorkdir {
 public:
  NvccWorkdir();
  ~NvccWorkdir();
  const std::string& path() const { return dir_; }

 private:
  std::string dir_;
};

inline const char* kHostCc = "hostcc/gcc";

// The installed nvcc when it is the release the option table came from; else "" and why not.
std::string usableNvcc(std::string& whyNot);

// `nvcc --dryrun line[1:]` in dir (the cheapest run that still parses and checks every option):
// its exit status, and in log what it said when it failed.
int runNvcc(const std::string& nvcc, const std::string& dir, const Args& line, std::string& log);

}  // namespace gridlock::test
