// The Clang resource directory (Clang's own headers: stddef.h, the CUDA wrappers), looked up at
// run time so an installed or moved gridlock never depends on its build tree: the path of the
// Clang it was built with (Debian's libclang-common-19-dev installs it at a fixed system path),
// else beside the libclang-cpp the process loaded (LLVM's own install layout).
#pragma once

#include <string>
#include <vector>

namespace gridlock::frontend {

struct ResourceDirCandidate {
  std::string dir;
  std::string why;  // for the error message: "built with", "beside libclang-cpp"
};

// The defaults, in lookup order.
std::vector<ResourceDirCandidate> resourceDirCandidates();

// The first candidate holding include/stddef.h; throws std::runtime_error naming them all and
// the fix when none does.
std::string findResourceDir(const std::vector<ResourceDirCandidate>& candidates);

// findResourceDir(resourceDirCandidates()).
std::string clangResourceDir();

}  // namespace gridlock::frontend
