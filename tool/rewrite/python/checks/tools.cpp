#include "rewrite/python/checks/tools.h"

#include "support/install_layout.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace gridlock::rewrite::py::checks {
namespace {

namespace fs = std::filesystem;

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

// The first of `name` in $PATH that can be executed; "" when none.
std::string onPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    std::string candidate = (fs::path(dir) / name).string();
    if (executable(candidate) && !fs::is_directory(candidate)) return candidate;
  }
  return "";
}

// pyright at `path`: a script run by node, or an executable.
void usePyright(Tools& tools, const std::string& path, const std::string& from) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    tools.pyrightMissing = from + " names " + path + ", which is not a file";
    return;
  }
  if (fs::path(path).extension() != ".js") {
    tools.pyright = {path};
    return;
  }
  std::string node = onPath("node");
  if (node.empty()) node = onPath("nodejs");
  if (node.empty()) {
    tools.pyrightMissing = "pyright is at " + path + ", but no node is on PATH (Debian: nodejs)";
    return;
  }
  tools.pyright = {node, path};
}

}  // namespace

Tools findTools(const std::string& pyrightPath) {
  Tools tools;
  tools.python = executable("/usr/bin/python3") ? "/usr/bin/python3" : onPath("python3");
  const char* env = std::getenv("GRIDLOCK_PYRIGHT");
  if (!pyrightPath.empty()) {
    usePyright(tools, pyrightPath, "--pyright");
  } else if (env && *env) {
    usePyright(tools, env, "GRIDLOCK_PYRIGHT");
  } else if (std::string source = support::sourceTreeOfThisBuild();
             !source.empty() && fs::exists(source + "/" + GRIDLOCK_PYRIGHT_DEPS)) {
    usePyright(tools, source + "/" + GRIDLOCK_PYRIGHT_DEPS, "the build tree");
  } else if (std::string found = onPath("pyright"); !found.empty()) {
    tools.pyright = {found};
  } else {
    tools.pyrightMissing = std::string("pyright is not installed: no GRIDLOCK_PYRIGHT, no ") +
                           "pyright on PATH (npm install -g pyright@" + GRIDLOCK_PYRIGHT_VERSION +
                           "; in a source checkout scripts/setup.sh unpacks it into .deps/)";
  }
  return tools;
}

}  // namespace gridlock::rewrite::py::checks
