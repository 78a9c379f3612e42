// A private copy of a Python tree in a temporary directory, for a checker to read with a
// change laid over it: the user's tree is only ever read.
#pragma once

#include "rewrite/python/checks/change.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

class TreeCopy {
 public:
  // Copies what pyright reads under `root` (.py and .pyi files, py.typed markers,
  // pyrightconfig.json and pyproject.toml), keeping the layout; directories pyright itself
  // leaves out (hidden ones, __pycache__, node_modules) and symlinks are not followed. Throws
  // std::runtime_error when `root` is not a directory or a file cannot be copied.
  explicit TreeCopy(const std::string& root);
  ~TreeCopy();  // removes the copy
  TreeCopy(const TreeCopy&) = delete;
  TreeCopy& operator=(const TreeCopy&) = delete;

  const std::string& dir() const { return dir_; }  // absolute
  size_t files() const { return files_; }

  enum class Side { Before, After };
  // Writes each change's contents of `side` into the copy. Throws std::runtime_error for a
  // path that is absolute or leaves the root.
  void lay(const std::vector<FileChange>& changes, Side side) const;

 private:
  std::string dir_;
  size_t files_ = 0;
};

// Whether `path` may be laid over a tree: relative, and inside it once `.` and `..` fold.
bool insideTree(const std::string& path);

}  // namespace gridlock::rewrite::py::checks
