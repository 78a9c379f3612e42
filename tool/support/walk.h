// A walk of a directory tree that never ends short: a directory that cannot be opened or read
// (no permission, gone since its parent was listed, out of file descriptors) is an error naming
// it, never a walk that silently lists less. The Python frontend's walk, the gate's walk for
// files no unit covers, the rewriter's search outside the compile database and the checker's
// tree copy all walk with it.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

namespace gridlock::support {

class WalkError : public std::runtime_error {
 public:
  WalkError(std::string dir, std::string reason);
  const std::string& dir() const { return dir_; }        // as the walk reached it
  const std::string& reason() const { return reason_; }  // strerror's words

 private:
  std::string dir_, reason_;
};

using WalkVisit = std::function<bool(const std::filesystem::directory_entry&)>;
using WalkFailure = std::function<void(const WalkError&)>;

// Calls `visit` on every entry under `dir` (not `dir` itself); a directory's entries are
// visited when `visit` returns true for it. Links to directories are visited, never entered.
// Directories are listed one at a time, each whole before those below it are opened (so the
// walk holds one descriptor at most), in no fixed order. A directory (`dir` or one under it)
// that cannot be opened or read throws WalkError; with `failed`, it is handed to `failed`
// instead and the walk goes on with the others (a search that reports what it could not read).
void walkTree(const std::string& dir, const WalkVisit& visit, const WalkFailure& failed = {});

// The step reached each time a directory has been listed, before those below it are opened
// (support/crash_point.h's stopPoint): a test stopped there removes a directory.
inline constexpr const char* kWalkListedStep = "walk-listed";

}  // namespace gridlock::support
