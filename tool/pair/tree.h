// A source tree to build and test: a directory as given, or a git revision checked out as a
// temporary `git worktree` that is removed again when the Tree goes away.
#pragma once

#include <string>

namespace gridlock::pair {

class Tree {
 public:
  // `spec` is a directory, else a revision of the repository at `repo`, checked out under
  // `scratch`/`label`. Throws InputError when it is neither.
  static Tree resolve(const std::string& spec, const std::string& repo, const std::string& scratch,
                      const std::string& label);

  Tree(Tree&& other) noexcept;
  Tree& operator=(Tree&&) = delete;
  Tree(const Tree&) = delete;
  ~Tree();

  const std::string& path() const { return path_; }
  bool isWorktree() const { return !repo_.empty(); }
  const std::string& revision() const { return revision_; }

 private:
  // `git worktree remove` and prune, run even after an interrupt; never throws.
  static void removeWorktree(const std::string& repo, const std::string& dir);
  Tree(std::string path, std::string repo, std::string revision)
      : path_(std::move(path)), repo_(std::move(repo)), revision_(std::move(revision)) {}
  std::string path_, repo_, revision_;  // repo_ set only for a worktree we created
};

}  // namespace gridlock::pair
