// The compile database as the scan sees it: compile_commands.json from -p, with nvcc entries
// translated into Clang CUDA commands, the arguments Clang cannot take or the user removes
// left out (remove_args.h), --extra-arg and the resource dir added.
#pragma once

#include "frontend/nvcc_translate.h"
#include "frontend/remove_args.h"

#include <clang/Tooling/CompilationDatabase.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::frontend {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DatabaseOptions {
  std::string buildDir;                 // -p
  std::vector<std::string> extraArgs;   // --extra-arg
  std::vector<std::string> removeArgs;  // --remove-arg: globs (ArgRemover)
  std::string resourceDir;              // -resource-dir for Clang's own headers
  CudaSettings cuda;
};

class ScanDatabase : public clang::tooling::CompilationDatabase {
 public:
  // Throws InputError naming the directory when there is no readable database. `buildDir`
  // is the directory holding compile_commands.json, or that file itself.
  static std::unique_ptr<ScanDatabase> load(const DatabaseOptions& options);

  // The database file, as the options name it ("build/compile_commands.json").
  const std::string& path() const { return path_; }
  // Throws InputError naming the entry when an entry of `file` cannot be handed to Clang: an
  // empty command, or a directory that does not exist (Clang would abort the process trying
  // to change into it; a relative one is taken from the current directory, as Clang does).
  void checkEntries(const std::string& file) const;
  // The same, for an entry whose `file` is relative to a `directory` that does not exist: where
  // that file lies is unknown, so whether it is under the root cannot be said either (it is
  // checked before the root, whatever the file's name then seems to say).
  void checkRelativeEntries(const std::string& file) const;

  std::vector<clang::tooling::CompileCommand> getCompileCommands(
      llvm::StringRef file) const override;
  std::vector<std::string> getAllFiles() const override;

  // What translation did to the commands of a file, for the report.
  const std::vector<std::string>& notes(const std::string& file) const;
  // The --remove-arg patterns that removed nothing from any command of the database.
  std::vector<std::string> unusedRemovals() const;

 private:
  ScanDatabase(std::unique_ptr<clang::tooling::CompilationDatabase> inner, DatabaseOptions opts,
               std::string path);
  // `used`, when given, gets the patterns of remover_ that removed something.
  clang::tooling::CompileCommand adjust(clang::tooling::CompileCommand cmd,
                                        std::vector<std::string>& notes,
                                        std::vector<bool>* used = nullptr) const;

  std::unique_ptr<clang::tooling::CompilationDatabase> inner_;
  DatabaseOptions options_;
  ArgRemover remover_;
  std::vector<bool> used_;  // per remover_ pattern, over the whole database
  std::string path_;
  std::map<std::string, std::vector<clang::tooling::CompileCommand>> commands_;
  std::map<std::string, std::vector<std::string>> notes_;
};

}  // namespace gridlock::frontend
