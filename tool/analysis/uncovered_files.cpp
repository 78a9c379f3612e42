#include "analysis/uncovered_files.h"

#include "support/confine.h"
#include "support/source_files.h"
#include "support/walk.h"

#include <filesystem>
#include <set>

namespace gridlock::analysis {
namespace {

namespace fs = std::filesystem;

// A directory the walk does not enter: hidden (.git, .gridlock-cache), a build tree (CMake's
// own sources under CMakeFiles are no project's), or one the query names.
bool skipped(const fs::path& dir, const std::set<std::string>& skip) {
  std::string name = dir.filename().string();
  if (!name.empty() && name[0] == '.') return true;
  std::error_code ec;
  if (fs::exists(dir / "CMakeCache.txt", ec)) return true;
  return skip.count(dir.string()) > 0;
}

// The C, C++ and CUDA files under `dir` (real), symlinks left out (the database names a file
// by the path it compiles, and a link's target is walked where it lies): real paths too.
// A directory that cannot be read throws support::WalkError: its files would go unnamed.
void walk(const std::string& dir, const std::set<std::string>& skip,
          std::vector<std::string>& out) {
  support::walkTree(dir, [&](const fs::directory_entry& e) {
    std::error_code ec;
    if (e.is_symlink(ec)) return false;
    if (e.is_directory(ec)) return !skipped(e.path(), skip);
    if (e.is_regular_file(ec) && support::isCxxSource(e.path().string()))
      out.push_back(e.path().string());
    return false;
  });
}

}  // namespace

CoverageQuery wholeTree(const std::string& root) {
  CoverageQuery q;
  if (root == "/")
    q.rootNotWalked = true;
  else
    q.dirs = {root};
  return q;
}

std::vector<std::string> uncoveredFiles(const GatedRun& run, const CoverageQuery& q) {
  std::set<std::string> skip(q.skip.begin(), q.skip.end());
  std::vector<std::string> candidates;
  for (const auto& d : q.dirs) walk(d, skip, candidates);
  std::error_code ec;
  for (const auto& f : q.files)
    if (support::isCxxSource(f) && fs::is_regular_file(f, ec)) candidates.push_back(f);
  std::set<std::string> out;
  for (const auto& c : candidates) {
    std::string rel;
    if (!support::relativeTo(run.root, c, rel)) continue;
    if (!run.rules.cxxPackScans(rel, true)) continue;
    if (!run.inventory.filesSeen.count(rel)) out.insert(rel);
  }
  return {out.begin(), out.end()};
}

}  // namespace gridlock::analysis
