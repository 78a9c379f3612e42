// Where a path really leads, and whether that is inside a root: what keeps a path that a file
// names (a journal's entry, a symlinked source) from making gridlock write outside the tree
// the user gave.
#pragma once

#include <string>

namespace gridlock::support {

// `path` (absolute) with every symlink followed, its own and its directories', as far as it
// exists; the part that does not exist yet is appended as written, `.` and `..` folded.
// Throws WriteError on a symlink loop.
std::string resolvePath(const std::string& path);

// Whether `path` is `root` or lies below it (both absolute and normalised; the root `/` holds
// every path).
bool isUnder(const std::string& root, const std::string& path);

// `path` relative to `root` when it lies below it (both absolute; the root `/` holds every
// absolute path): true with the rest in `out`; false with `path` in `out` otherwise.
bool relativeTo(const std::string& root, const std::string& path, std::string& out);

}  // namespace gridlock::support
