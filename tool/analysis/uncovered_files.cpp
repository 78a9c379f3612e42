#include "analysis/uncovered_files.h"

#include "support/confine.h"
#include "support/source_files.h"
#include "support/walk.h"

#include "rules/glob.h"

#include <filesystem>
#include <functional>
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

// Each regular file under `dir` (real), symlinks left out (the database names a file by the
// path it compiles, and a link's target is walked where it lies), until `each` returns false.
// A directory that cannot be read throws support::WalkError: its files would go unnamed.
void walkFiles(const std::string& dir, const std::set<std::string>& skip,
               const std::function<bool(const std::string&)>& each) {
  bool going = true;
  support::walkTree(dir, [&](const fs::directory_entry& e) {
    std::error_code ec;
    if (!going || e.is_symlink(ec)) return false;
    if (e.is_directory(ec)) return !skipped(e.path(), skip);
    if (e.is_regular_file(ec)) going = each(e.path().string());
    return false;
  });
}

// The C, C++ and CUDA files under `dir` (real): real paths too.
void walk(const std::string& dir, const std::set<std::string>& skip,
          std::vector<std::string>& out) {
  walkFiles(dir, skip, [&](const std::string& f) {
    if (support::isCxxSource(f)) out.push_back(f);
    return true;
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

bool anyTreeFileMatches(const std::string& root, const std::string& glob) {
  // From the glob's literal directories (`experimental` of `experimental/**`): no other
  // directory holds a file it matches.
  std::string base;
  for (size_t at = 0, slash; (slash = glob.find('/', at)) != std::string::npos; at = slash + 1) {
    std::string part = glob.substr(at, slash - at);
    if (part.find_first_of("*?[") != std::string::npos) break;
    base += (base.empty() ? "" : "/") + part;
  }
  std::string dir = base.empty() ? root : root + "/" + base;
  std::error_code ec;
  if (root == "/" || !fs::is_directory(dir, ec)) return false;
  bool found = false;
  walkFiles(dir, {}, [&](const std::string& f) {
    std::string rel;
    found = support::relativeTo(root, f, rel) && rules::globMatch(glob, rel);
    return !found;
  });
  return found;
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
