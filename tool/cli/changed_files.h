// `gate --changed-since REV`: the files a git diff touches, to restrict the gate to them.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::cli {

struct ChangedFiles {
  std::vector<std::string> present;  // absolute paths of changed files that exist
  std::vector<std::string> deleted;  // absolute paths of files the diff deletes
};

// What differs between REV and the working tree of the repository holding `dir`: committed,
// staged and unstaged changes (`git diff --name-only --no-renames REV`, so a rename is a
// deletion and an addition) and untracked files git does not ignore. Throws
// std::runtime_error naming the problem when git is missing, `dir` is not in a repository or
// REV is not a commit.
ChangedFiles changedSince(const std::string& rev, const std::string& dir);

}  // namespace gridlock::cli
