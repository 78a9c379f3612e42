#include "frontend/compile_db.h"

#include "support/file_io.h"

#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace gridlock::frontend {
namespace {

bool isCudaSource(llvm::StringRef file) { return llvm::sys::path::extension(file) == ".cu"; }

}  // namespace

std::unique_ptr<ScanDatabase> ScanDatabase::load(const DatabaseOptions& options) {
  llvm::SmallString<256> path(options.buildDir);
  if (!llvm::sys::fs::is_regular_file(path)) llvm::sys::path::append(path, "compile_commands.json");
  if (!llvm::sys::fs::exists(path))
    throw InputError("no compile database: " + std::string(path) +
                     " does not exist (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or "
                     "pass -p with the build directory that has it)");
  std::string error;
  auto inner = clang::tooling::JSONCompilationDatabase::loadFromFile(
      path, error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!inner) throw InputError("cannot load compile database " + std::string(path) + ": " + error);
  return std::unique_ptr<ScanDatabase>(
      new ScanDatabase(std::move(inner), options, std::string(path)));
}

ScanDatabase::ScanDatabase(std::unique_ptr<clang::tooling::CompilationDatabase> inner,
                           DatabaseOptions opts, std::string path)
    : inner_(std::move(inner)),
      options_(std::move(opts)),
      remover_(options_.removeArgs),
      used_(remover_.size(), false),
      path_(std::move(path)) {
  // Translate everything once, up front: the per-TU workers then only read.
  for (const auto& file : inner_->getAllFiles()) {
    auto& cmds = commands_[file];
    for (auto cmd : inner_->getCompileCommands(file))
      cmds.push_back(adjust(std::move(cmd), notes_[file], &used_));
  }
}

clang::tooling::CompileCommand ScanDatabase::adjust(clang::tooling::CompileCommand cmd,
                                                    std::vector<std::string>& notes,
                                                    std::vector<bool>* used) const {
  std::vector<std::string>& args = cmd.CommandLine;
  bool cuda = isCudaSource(cmd.Filename);
  if (!args.empty() && isNvcc(args[0])) {
    NvccTranslation t =
        translateNvcc(args, cmd.Directory, options_.cuda, support::readFile, cmd.Filename);
    args = std::move(t.args);
    // The CUDA flags it ends with are gridlock's own, added again below: never removed.
    args.resize(args.size() - cudaHostFlags(options_.cuda).size());
    cuda = true;
    notes.push_back("nvcc command translated to Clang CUDA (host side)");
    for (auto& n : t.notes) notes.push_back(std::move(n));
  }
  ArgRemover::Result kept = remover_.apply(args);
  args = std::move(kept.args);
  notes.insert(notes.end(), kept.notes.begin(), kept.notes.end());
  if (used)
    for (size_t i = 0; i < kept.matched.size(); ++i) (*used)[i] = (*used)[i] || kept.matched[i];
  if (cuda)
    for (auto& f : cudaHostFlags(options_.cuda)) args.push_back(f);
  // Clang's own headers (and CUDA's wrappers) live in the resource dir of the Clang we link.
  if (!options_.resourceDir.empty()) args.push_back("-resource-dir=" + options_.resourceDir);
  // Errors reach the scan's own consumer; no "N errors generated" lines on stderr.
  args.push_back("-fno-caret-diagnostics");
  for (const auto& a : options_.extraArgs) args.push_back(a);
  return cmd;
}

std::vector<clang::tooling::CompileCommand> ScanDatabase::getCompileCommands(
    llvm::StringRef file) const {
  auto it = commands_.find(file.str());
  if (it != commands_.end()) return it->second;
  // The inner database may know the file under another spelling.
  std::vector<clang::tooling::CompileCommand> out;
  std::vector<std::string> ignored;  // only files of the database get notes
  for (auto cmd : inner_->getCompileCommands(file)) out.push_back(adjust(std::move(cmd), ignored));
  return out;
}

namespace {

// Throws InputError naming the entry of `file` when its directory does not exist or is no
// directory (Clang would abort the process trying to change into it).
void checkDirectory(const std::string& entry, const clang::tooling::CompileCommand& cmd) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(cmd.Directory, status) || !llvm::sys::fs::exists(status)) {
    std::string from;
    llvm::SmallString<256> cwd;
    if (!llvm::sys::path::is_absolute(cmd.Directory) && !llvm::sys::fs::current_path(cwd))
      from = " (relative to " + std::string(cwd) + ")";
    throw InputError(entry + ": directory " + cmd.Directory + " does not exist" + from);
  }
  if (!llvm::sys::fs::is_directory(status))
    throw InputError(entry + ": directory " + cmd.Directory + " is not a directory");
}

std::string entryOf(const std::string& file) { return "compile database entry for " + file; }

}  // namespace

void ScanDatabase::checkEntries(const std::string& file) const {
  for (const auto& cmd : inner_->getCompileCommands(file)) {
    if (cmd.CommandLine.empty()) throw InputError(entryOf(file) + " has an empty command");
    checkDirectory(entryOf(file), cmd);
  }
}

void ScanDatabase::checkRelativeEntries(const std::string& file) const {
  std::vector<clang::tooling::CompileCommand> cmds = inner_->getCompileCommands(file);
  // A relative `file` in a relative `directory` gives a relative name, which the database
  // cannot look up: find its entries among all.
  if (cmds.empty() && !llvm::sys::path::is_absolute(file))
    for (auto& cmd : inner_->getAllCompileCommands()) {
      llvm::SmallString<256> joined(cmd.Directory);
      llvm::sys::path::append(joined, cmd.Filename);
      llvm::sys::path::native(joined);
      if (joined == file) cmds.push_back(std::move(cmd));
    }
  for (const auto& cmd : cmds)
    if (!llvm::sys::path::is_absolute(cmd.Filename)) checkDirectory(entryOf(file), cmd);
}

std::vector<std::string> ScanDatabase::getAllFiles() const { return inner_->getAllFiles(); }

std::vector<std::string> ScanDatabase::unusedRemovals() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < used_.size(); ++i)
    if (!used_[i]) out.push_back(remover_.pattern(i));
  return out;
}

const std::vector<std::string>& ScanDatabase::notes(const std::string& file) const {
  static const std::vector<std::string> none;
  auto it = notes_.find(file);
  return it == notes_.end() ? none : it->second;
}

}  // namespace gridlock::frontend
