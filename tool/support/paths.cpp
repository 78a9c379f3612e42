#include "support/paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <vector>

namespace gridlock::support {
namespace {

bool sep(char c) { return c == '/'; }

// "//host" at the start of a network path (exactly two separators, then a name).
size_t rootNameEnd(const std::string& p) {
  if (p.size() > 2 && sep(p[0]) && sep(p[1]) && !sep(p[2])) {
    size_t end = p.find('/', 2);
    return end == std::string::npos ? p.size() : end;
  }
  return 0;
}

// The working directory as a shell names it: $PWD when that is the directory we are in (so a
// directory reached through a symlink keeps the name it was reached by), else getcwd.
std::string currentDirectory() {
  const char* pwd = std::getenv("PWD");
  struct stat a, b;
  if (pwd && sep(pwd[0]) && ::stat(pwd, &a) == 0 && ::stat(".", &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino)
    return pwd;
  char buffer[PATH_MAX];
  return ::getcwd(buffer, sizeof buffer) ? std::string(buffer) : std::string();
}

bool statIs(const std::string& path, mode_t type) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IFMT) == type;
}

}  // namespace

std::string rootPath(const std::string& path) {
  size_t name = rootNameEnd(path);
  if (name > 0) return path.substr(0, name < path.size() && sep(path[name]) ? name + 1 : name);
  return !path.empty() && sep(path[0]) ? "/" : "";
}

bool isAbsolute(const std::string& path) {
  size_t name = rootNameEnd(path);
  return name > 0 ? name < path.size() : !path.empty() && sep(path[0]);
}

std::string join(const std::string& dir, const std::string& name) {
  std::string out = dir;
  if (!out.empty() && sep(out.back())) {
    size_t first = name.find_first_not_of('/');
    if (first != std::string::npos) out += name.substr(first);
    return out;
  }
  bool nameHasSep = !name.empty() && sep(name[0]);
  if (!nameHasSep && !(out.empty() || rootNameEnd(name) > 0)) out += '/';
  return out + name;
}

std::string removeDots(const std::string& path) {
  std::string root = rootPath(path);
  std::vector<std::string> parts;
  size_t i = root.size();
  while (i < path.size()) {
    size_t end = path.find('/', i);
    if (end == std::string::npos) end = path.size();
    std::string part = path.substr(i, end - i);
    i = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
        continue;
      }
      if (isAbsolute(path)) continue;  // `..` above the root stays there
    }
    parts.push_back(part);
  }
  std::string out = root;
  for (const auto& part : parts) out = join(out, part);
  return out;
}

std::string absoluteAsIs(const std::string& path) {
  if (isAbsolute(path)) return path;
  std::string cwd = currentDirectory();
  size_t name = rootNameEnd(path);
  if (name == 0) return join(cwd, path);
  // "//host" without a directory: the host, then the working directory's path under it.
  size_t cwdRelative = cwd.find_first_not_of('/');
  return join(join(join(path.substr(0, name), "/"),
                   cwdRelative == std::string::npos ? "" : cwd.substr(cwdRelative)),
              "");
}

std::string absolute(const std::string& path) { return removeDots(absoluteAsIs(path)); }

std::string realPath(const std::string& path) {
  char buffer[PATH_MAX];
  if (::realpath(path.c_str(), buffer)) return buffer;
  return absolute(path);
}

std::string parentPath(const std::string& path) {
  // Where the last component starts (a trailing separator is a component of its own).
  size_t end = path.size();
  if (!path.empty() && sep(path.back())) {
    end = path.size() - 1;
  } else {
    size_t last = path.empty() ? std::string::npos : path.find_last_of('/');
    end = last == std::string::npos || (last == 1 && sep(path[0])) ? 0 : last + 1;
  }
  bool lastWasSep = !path.empty() && sep(path[end]);
  size_t name = rootNameEnd(path);
  size_t rootDir = name > 0 ? (name < path.size() ? name : std::string::npos)
                            : (!path.empty() && sep(path[0]) ? 0 : std::string::npos);
  while (end > 0 && (rootDir == std::string::npos || end > rootDir) && sep(path[end - 1])) --end;
  if (end == rootDir && !lastWasSep) return path.substr(0, rootDir + 1);
  return path.substr(0, end);
}

std::string fileName(const std::string& path) {
  if (path.empty()) return "";
  if (sep(path.back())) {
    // A trailing separator is a "." of its own, but for the root's.
    bool onlyRoot = path.find_first_not_of('/') == std::string::npos || rootPath(path) == path;
    return onlyRoot ? "/" : ".";
  }
  size_t name = rootNameEnd(path);
  if (name == path.size()) return path;
  size_t last = path.find_last_of('/');
  return last == std::string::npos ? path : path.substr(last + 1);
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }
bool isDirectory(const std::string& path) { return statIs(path, S_IFDIR); }
bool isRegularFile(const std::string& path) { return statIs(path, S_IFREG); }

bool isSymlink(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

}  // namespace gridlock::support
