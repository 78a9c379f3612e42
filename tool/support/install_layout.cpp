#include "support/install_layout.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace gridlock::support {
namespace {

namespace fs = std::filesystem;

// Whether `path` is `dir` or lies under it (both real paths).
bool within(const fs::path& path, const fs::path& dir) {
  auto [d, p] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  return d == dir.end();
}

}  // namespace

std::string executablePath() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : exe.string();
}

std::string installedDataDir() {
  std::string exe = executablePath();
  if (exe.empty()) return "";
  return (fs::path(exe).parent_path().parent_path() / "share" / "gridlock").string();
}

std::string sourceTreeOfThisBuild() {
  std::string exe = executablePath();
  std::error_code ec;
  fs::path build = fs::weakly_canonical(GRIDLOCK_BUILD_TREE, ec);
  if (exe.empty() || ec || !within(fs::path(exe), build)) return "";
  return GRIDLOCK_SOURCE_TREE;
}

}  // namespace gridlock::support
