#include "cli/changed_files.h"

#include "support/file_io.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <optional>

namespace gridlock::cli {
namespace {

struct GitResult {
  int status = -1;
  std::string out, err;
};

// `git -C dir ARGS...`, its output captured through temporary files.
GitResult git(const std::string& dir, const std::vector<std::string>& args) {
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName("git");
  if (!program) throw std::runtime_error("gate --changed-since needs git, and none is on PATH");
  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("gridlock-git", "out", outPath) ||
      llvm::sys::fs::createTemporaryFile("gridlock-git", "err", errPath))
    throw std::runtime_error("gate --changed-since: cannot create a temporary file");
  std::vector<llvm::StringRef> argv = {*program, "-C", dir};
  for (const auto& a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), outPath.str(), errPath.str()};
  GitResult r;
  r.status = llvm::sys::ExecuteAndWait(*program, argv, std::nullopt, redirects);
  r.out = support::readFile(outPath.str().str()).value_or("");
  r.err = support::readFile(errPath.str().str()).value_or("");
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  return r;
}

std::string firstLine(const std::string& text) {
  llvm::StringRef t = llvm::StringRef(text).trim();
  return t.substr(0, t.find('\n')).str();
}

// NUL-separated names (-z), relative to `top`, made absolute.
void addNames(const std::string& top, const std::string& text, std::vector<std::string>& out) {
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    auto [name, tail] = rest.split('\0');
    if (!name.empty()) {
      llvm::SmallString<256> abs(top);
      llvm::sys::path::append(abs, name);
      out.push_back(std::string(abs));
    }
    rest = tail;
  }
}

}  // namespace

ChangedFiles changedSince(const std::string& rev, const std::string& dir) {
  GitResult top = git(dir, {"rev-parse", "--show-toplevel"});
  if (top.status != 0)
    throw std::runtime_error("gate --changed-since: " + dir + " is not in a git repository (" +
                             firstLine(top.err) + ")");
  std::string topDir = llvm::StringRef(top.out).trim().str();
  GitResult commit = git(dir, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
  if (commit.status != 0)
    throw std::runtime_error("gate --changed-since " + rev + ": not a commit in " + topDir);
  GitResult diff = git(dir, {"diff", "--name-only", "--no-renames", "-z", rev, "--"});
  if (diff.status != 0)
    throw std::runtime_error("gate --changed-since " + rev +
                             ": git diff failed: " + firstLine(diff.err));
  GitResult untracked =
      git(dir, {"ls-files", "--others", "--exclude-standard", "-z", "--full-name", ":/"});
  if (untracked.status != 0)
    throw std::runtime_error("gate --changed-since: git ls-files failed: " +
                             firstLine(untracked.err));
  std::vector<std::string> all;
  addNames(topDir, diff.out, all);
  addNames(topDir, untracked.out, all);
  ChangedFiles out;
  for (auto& f : all) (llvm::sys::fs::exists(f) ? out.present : out.deleted).push_back(f);
  return out;
}

}  // namespace gridlock::cli
