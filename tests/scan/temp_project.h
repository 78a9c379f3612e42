// A small project written at run time into a fresh temp directory, with its own compile
// database: the database needs absolute paths, and odd file names (bytes that are not UTF-8,
// symlinks) have no place in the repository.
#pragma once

#include "support/run_command.h"

#include <string>

namespace gridlock::test {

class TempProject {
 public:
  explicit TempProject(const std::string& tag);
  ~TempProject();
  TempProject(const TempProject&) = delete;
  TempProject& operator=(const TempProject&) = delete;

  const std::string& dir() const { return dir_; }    // the project (holds src/ and build/)
  std::string src() const { return dir_ + "/src"; }  // the sources: the scans' --root
  std::string build() const { return dir_ + "/build"; }

  // Writes a file under src/ (parents created); returns its absolute path.
  std::string write(const std::string& rel, const std::string& text) const;
  // A compile database entry for src/`rel`, written byte for byte (no JSON escaping, so a
  // name may hold any byte): directory src/ unless given, `clang++ -std=c++17 -c FILE`
  // unless a command is given.
  std::string entry(const std::string& rel, const std::string& directory = "",
                    const std::string& command = "") const;
  // build/compile_commands.json holding these entries (or this text when it starts with '[').
  void database(const std::string& entriesOrText) const;
  // `gridlock ARGS` run from the project directory.
  CommandResult run(const std::string& args) const;
  // `-p build --rules PACK --root src` for a pack file under the project.
  std::string scanArgs(const std::string& pack) const;

 private:
  std::string dir_;
};

// `text` in single quotes for sh.
std::string shellQuote(const std::string& text);

}  // namespace gridlock::test
