// One file a Python rewrite changes, as the verification receives it.
#pragma once

#include <string>

namespace gridlock::rewrite::py::checks {

struct FileChange {
  std::string path;    // relative to the root, '/'-separated, inside it
  std::string before;  // the contents the rewrite started from
  std::string after;   // the contents it would write
};

}  // namespace gridlock::rewrite::py::checks
