#include "pair/tree.h"

#include "pair/interrupt.h"
#include "pair/process.h"
#include "pair/results.h"

#include <filesystem>

namespace gridlock::pair {
namespace fs = std::filesystem;

Tree Tree::resolve(const std::string& spec, const std::string& repo, const std::string& scratch,
                   const std::string& label) {
  std::error_code ec;
  if (fs::is_directory(spec, ec))
    return Tree(fs::absolute(spec).lexically_normal().string(), "", "");
  std::string sha;
  ProcessResult r =
      runProcess({{"git", "-C", repo, "rev-parse", "--verify", "--quiet", spec + "^{commit}"},
                  "",
                  {},
                  0,
                  &sha});
  while (!sha.empty() && (sha.back() == '\n' || sha.back() == '\r')) sha.pop_back();
  if (!r.ok() || sha.empty())
    throw InputError("--" + label + " " + spec + ": neither a directory nor a git revision of " +
                     fs::absolute(repo).string());
  std::string dir = (fs::path(scratch) / (label + "-tree")).string();
  std::string ignored;
  try {
    r = runProcess(
        {{"git", "-C", repo, "worktree", "add", "--detach", dir, sha}, "", {}, 0, &ignored});
  } catch (const Interrupted&) {
    removeWorktree(fs::absolute(repo).string(), dir);  // git may have registered it already
    throw;
  }
  if (!r.ok())
    throw InputError("--" + label + " " + spec + ": git worktree add failed (" + r.describe() +
                     ")");
  return Tree(dir, fs::absolute(repo).string(), sha);
}

Tree::Tree(Tree&& other) noexcept
    : path_(std::move(other.path_)),
      repo_(std::move(other.repo_)),
      revision_(std::move(other.revision_)) {
  other.repo_.clear();
}

Tree::~Tree() {
  if (!repo_.empty()) removeWorktree(repo_, path_);
}

void Tree::removeWorktree(const std::string& repo, const std::string& dir) {
  std::string ignored;
  try {
    // Not interruptible: this is what an interrupt unwinds to.
    runProcess(
        {{"git", "-C", repo, "worktree", "remove", "--force", dir}, "", {}, 0, &ignored, false});
    std::error_code ec;
    fs::remove_all(dir, ec);
    runProcess({{"git", "-C", repo, "worktree", "prune"}, "", {}, 0, &ignored, false});
  } catch (...) {
    // Cleanup must not throw from a destructor; a stale worktree is pruned by git later.
  }
}

}  // namespace gridlock::pair
