#include "cli/gate_coverage.h"

#include "analysis/gate_policy.h"
#include "index/path_text.h"
#include "support/paths.h"

#include <filesystem>
#include <iostream>

namespace gridlock::cli {
namespace {

namespace fs = std::filesystem;

void printUncovered(const std::vector<std::string>& files, bool allow) {
  const char* level = allow ? "warning" : "error";
  for (const auto& f : files)
    std::cerr << "gridlock: " << level << ": " << index::textPath(f)
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

analysis::CoverageQuery coverageQuery(const ScanOptions& o, const std::string& root) {
  analysis::CoverageQuery q;
  std::error_code ec;
  if (o.filesFromDiff)
    for (const auto& f : o.files) q.files.push_back(support::realPath(f));
  else if (o.files.empty())
    q = analysis::wholeTree(root);
  else
    for (const auto& f : o.files)
      if (fs::is_directory(f, ec)) q.dirs.push_back(support::realPath(f));
  std::vector<std::string> builds = o.extraDbs;
  if (!o.buildDir.empty()) builds.push_back(o.buildDir);  // none: a scan of Python alone
  for (const auto& b : builds)  // -p names the directory or its compile_commands.json
    q.skip.push_back(
        support::realPath(fs::is_regular_file(b, ec) ? fs::path(b).parent_path().string() : b));
  if (!o.cache.dir.empty()) q.skip.push_back(support::realPath(o.cache.dir));
  return q;
}

int coverageStatus(const pipeline::ScanRun& run, const analysis::CoverageQuery& q,
                   bool allowUncovered) {
  analysis::GatedRun gated{run.inventory, run.rules, run.root, run.subset};
  std::vector<std::string> none = analysis::packsMatchingNothing(gated);
  if (!none.empty()) {
    printNothingMatched(none, run.inventory.filesScanned);
    return 2;
  }
  if (q.rootNotWalked)
    std::cerr << "gridlock: warning: the root is /: the gate does not walk the whole file system "
                 "for files no unit covers; give --root the project's directory to have them "
                 "named\n";
  std::vector<std::string> files = analysis::uncoveredFiles(gated, q);
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
