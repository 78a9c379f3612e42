#include "cli/gate_coverage.h"

#include "frontend/file_places.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

namespace gridlock::cli {
namespace {

namespace fs = std::filesystem;

// A directory the walk does not enter: hidden (.git, .gridlock-cache), a build tree (CMake's
// own sources under CMakeFiles are no project's), or one the query names.
bool skipped(const fs::path& dir, const std::set<std::string>& skip) {
  std::string name = dir.filename().string();
  if (!name.empty() && name[0] == '.') return true;
  std::error_code ec;
  if (fs::exists(dir / "CMakeCache.txt", ec)) return true;
  return skip.count(frontend::realPath(dir.string())) > 0;
}

// The C, C++ and CUDA files under `dir`, symlinks left out (the database names a file by the
// path it compiles, and a link's target is walked where it lies).
void walk(const std::string& dir, const std::set<std::string>& skip,
          std::vector<std::string>& out) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& e = *it;
    if (e.is_symlink(ec)) continue;
    if (e.is_directory(ec)) {
      if (skipped(e.path(), skip)) it.disable_recursion_pending();
      continue;
    }
    if (e.is_regular_file(ec) && isCxxSource(e.path().string())) out.push_back(e.path().string());
  }
}

void printUncovered(const std::vector<std::string>& files, bool allow) {
  const char* level = allow ? "warning" : "error";
  for (const auto& f : files)
    std::cerr << "gridlock: " << level << ": " << f
              << ": in the rule packs' scope, but no compile database entry covers it (no unit "
                 "compiles or includes it): the gate cannot see its reads\n";
  if (allow)
    std::cerr << "gridlock: " << files.size()
              << " file(s) in scope not checked (--allow-uncovered)\n";
  else
    std::cerr << "gridlock: " << files.size()
              << " file(s) in scope that the gate cannot see; add them to the compile "
                 "database, leave them out of the pack's scope (scope.exclude), or pass "
                 "--allow-uncovered to warn instead\n";
}

// One pack: "rule pack 'ours' matched nothing"; several: "rule packs 'a', 'b' matched nothing".
void printNothingMatched(const std::vector<std::string>& packs, size_t units) {
  std::string names;
  for (const auto& p : packs) names += (names.empty() ? "'" : ", '") + p + "'";
  bool one = packs.size() == 1;
  std::cerr << "gridlock: error: rule pack" << (one ? " " : "s ") << names << " matched nothing in "
            << units << " translation unit(s): no unit declares any of " << (one ? "its" : "their")
            << " rules, so the gate would count no reads (check --rules and the compile "
               "database)\n";
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

CoverageQuery coverageQuery(const ScanOptions& o, const std::string& root) {
  CoverageQuery q;
  std::error_code ec;
  if (o.filesFromDiff)
    q.files = o.files;
  else if (o.files.empty())
    q = wholeTree(root);
  else
    for (const auto& f : o.files)
      if (fs::is_directory(f, ec)) q.dirs.push_back(f);
  std::vector<std::string> builds = {o.buildDir};
  builds.insert(builds.end(), o.extraDbs.begin(), o.extraDbs.end());
  for (const auto& b : builds)  // -p names the directory or its compile_commands.json
    q.skip.push_back(fs::is_regular_file(b, ec) ? fs::path(b).parent_path().string() : b);
  if (!o.cache.dir.empty()) q.skip.push_back(o.cache.dir);
  return q;
}

bool isCxxSource(const std::string& path) {
  static const std::set<std::string> kExtensions = {".c",   ".cc",  ".cpp", ".cxx", ".c++", ".C",
                                                    ".cu",  ".cuh", ".h",   ".hh",  ".hpp", ".hxx",
                                                    ".h++", ".H",   ".inl", ".ipp", ".tpp", ".tcc"};
  return kExtensions.count(fs::path(path).extension().string()) > 0;
}

std::vector<std::string> uncoveredFiles(const pipeline::ScanRun& run, const CoverageQuery& q) {
  std::set<std::string> skip;
  for (const auto& s : q.skip) skip.insert(frontend::realPath(s));
  std::vector<std::string> candidates;
  for (const auto& d : q.dirs) walk(d, skip, candidates);
  for (const auto& f : q.files)
    if (isCxxSource(f) && fs::is_regular_file(f)) candidates.push_back(f);
  std::set<std::string> out;
  for (const auto& c : candidates) {
    std::string rel;
    if (!frontend::relativeTo(run.root, frontend::realPath(c), rel)) continue;
    if (run.rules.placeAny(rel, true) != rules::Placement::In) continue;
    if (!run.inventory.filesSeen.count(rel)) out.insert(rel);
  }
  return {out.begin(), out.end()};
}

int coverageStatus(const pipeline::ScanRun& run, const CoverageQuery& q, bool allowUncovered) {
  if (!run.subset) {
    std::vector<std::string> none = run.rules.nothingMatched(run.inventory.rulesSeen);
    if (!none.empty()) {
      printNothingMatched(none, run.inventory.filesScanned);
      return 2;
    }
  }
  if (q.rootNotWalked)
    std::cerr << "gridlock: warning: the root is /: the gate does not walk the whole file system "
                 "for files no unit covers; give --root the project's directory to have them "
                 "named\n";
  std::vector<std::string> files = uncoveredFiles(run, q);
  if (files.empty()) return 0;
  printUncovered(files, allowUncovered);
  return allowUncovered ? 0 : 2;
}

void addAllowUncoveredFlag(CLI::App& cmd, bool& allow) {
  cmd.add_flag("--allow-uncovered", allow,
               "Warn of the C/C++/CUDA files in the packs' scope that no compile database unit "
               "compiles or includes, instead of failing (exit 2)");
}

}  // namespace gridlock::cli
