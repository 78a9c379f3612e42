// A path the user or a command gave (relative to the working directory, or absolute) as the
// run's root names it: positional paths and the rewriter's overlay both become root-relative.
#pragma once

#include <string>
#include <vector>

namespace gridlock::pipeline {

// `path` relative to `root` (a real path): first as written, its `.` and `..` folded (a link
// inside the tree keeps its name in the tree, even when it leads out), then with its links
// resolved (a path given through a link to the tree); each that lies under the root, once,
// "" for the root itself. Empty when neither does.
std::vector<std::string> rootRelative(const std::string& root, const std::string& path);

}  // namespace gridlock::pipeline
