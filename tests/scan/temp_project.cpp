#include "scan/temp_project.h"

#include <filesystem>

namespace gridlock::test {

std::string shellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TempProject::TempProject(const std::string& tag) : dir_(makeTempDir(tag)) {
  std::filesystem::create_directories(src());
  std::filesystem::create_directories(build());
}

TempProject::~TempProject() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string TempProject::write(const std::string& rel, const std::string& text) const {
  std::string path = src() + "/" + rel;
  writeFile(path, text);
  return path;
}

std::string TempProject::entry(const std::string& rel, const std::string& directory,
                               const std::string& command) const {
  std::string file = src() + "/" + rel;
  return "{\"directory\": \"" + (directory.empty() ? src() : directory) + "\", \"file\": \"" +
         file + "\", \"command\": \"" +
         (command.empty() ? "clang++ -std=c++17 -c " + file : command) + "\"}";
}

void TempProject::database(const std::string& entriesOrText) const {
  std::string text =
      !entriesOrText.empty() && entriesOrText[0] == '[' ? entriesOrText : "[" + entriesOrText + "]";
  writeFile(build() + "/compile_commands.json", text + "\n");
}

CommandResult TempProject::run(const std::string& args) const {
  return runCommand("cd " + shellQuote(dir_) + " && " + GRIDLOCK_BIN + " " + args);
}

std::string TempProject::scanArgs(const std::string& pack) const {
  return "-p build --rules " + pack + " --root src";
}

}  // namespace gridlock::test
