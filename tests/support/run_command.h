// Runs a shell command for tests, capturing its exit status, stdout and stderr.
#pragma once

#include <string>

namespace gridlock::test {

struct CommandResult {
  int status = -1;  // exit status, or -1 when it did not exit normally
  std::string out;
  std::string err;
};

CommandResult runCommand(const std::string& command);
std::string readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& text);
// A fresh empty directory under the system temp dir.
std::string makeTempDir(const std::string& tag);

}  // namespace gridlock::test
