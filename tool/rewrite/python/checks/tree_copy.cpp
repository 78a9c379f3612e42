#include "rewrite/python/checks/tree_copy.h"

#include "support/walk.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace gridlock::rewrite::py::checks {
namespace {

namespace fs = std::filesystem;

bool wanted(const fs::path& file) {
  std::string ext = file.extension().string();
  std::string name = file.filename().string();
  return ext == ".py" || ext == ".pyi" || name == "py.typed" || name == "pyrightconfig.json" ||
         name == "pyproject.toml";
}

bool skippedDirectory(const fs::path& dir) {
  std::string name = dir.filename().string();
  return name.starts_with(".") || name == "__pycache__" || name == "node_modules";
}

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

bool insideTree(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  return !path.empty() && p.is_relative() && !p.empty() && *p.begin() != ".." && p != ".";
}

TreeCopy::TreeCopy(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw std::runtime_error(root + " is not a directory");
  std::string pattern = (fs::temp_directory_path() / "gridlock-pyverify-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("cannot make a temporary directory for the checker's copy");
  dir_ = fs::canonical(pattern, ec).string();
  if (ec) dir_ = pattern;
  try {
    support::walkTree(root, [&](const fs::directory_entry& e) {
      if (e.is_symlink()) return false;  // not followed: it may lead out of the root
      if (e.is_directory()) return !skippedDirectory(e.path());
      if (!e.is_regular_file() || !wanted(e.path())) return false;
      fs::path target = fs::path(dir_) / fs::relative(e.path(), root);
      fs::create_directories(target.parent_path());
      fs::copy_file(e.path(), target);
      ++files_;
      return false;
    });
  } catch (const std::exception& e) {
    fs::remove_all(dir_, ec);
    throw std::runtime_error(std::string("copying the tree for the checker: ") + e.what());
  }
}

TreeCopy::~TreeCopy() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void TreeCopy::lay(const std::vector<FileChange>& changes, Side side) const {
  for (const FileChange& c : changes) {
    if (!insideTree(c.path))
      throw std::runtime_error("a changed file's path must lie inside the root: " + c.path);
    writeFile(fs::path(dir_) / fs::path(c.path).lexically_normal(),
              side == Side::Before ? c.before : c.after);
  }
}

}  // namespace gridlock::rewrite::py::checks
