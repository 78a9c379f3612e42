#include "support/confine.h"

#include "support/atomic_write.h"

#include <climits>
#include <cstdlib>
#include <filesystem>

namespace gridlock::support {

std::string resolvePath(const std::string& path) {
  std::string p = followLinks(path);
  // The deepest directory that exists, resolved; below it nothing exists, so no link either.
  std::string dir = dirOf(p), rest = p.substr(dir == "/" ? 0 : dir.size());
  char buf[PATH_MAX];
  while (!::realpath(dir.c_str(), buf)) {
    if (dir == "/" || dir == ".") return std::filesystem::path(p).lexically_normal().string();
    std::string up = dirOf(dir);
    rest = dir.substr(up == "/" ? 0 : up.size()) + rest;
    dir = up;
  }
  std::string base = buf;
  if (base == "/") base.clear();
  return std::filesystem::path(base + rest).lexically_normal().string();
}

bool isUnder(const std::string& root, const std::string& path) {
  if (root == "/") return !path.empty() && path[0] == '/';
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

bool relativeTo(const std::string& root, const std::string& path, std::string& out) {
  // The root `/` (a container's working directory) holds every absolute path.
  const std::string prefix = root == "/" ? root : root + "/";
  if (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0) {
    out = path.substr(prefix.size());
    return true;
  }
  out = path;
  return false;
}

}  // namespace gridlock::support
