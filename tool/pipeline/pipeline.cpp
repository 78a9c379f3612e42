#include "pipeline/pipeline.h"

#include "analysis/laundering.h"
#include "analysis/uncovered_files.h"
#include "apply/journal.h"
#include "pipeline/progress.h"
#include "pipeline/root_path.h"
#include "pipeline/shard.h"
#include "support/paths.h"

#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>

namespace gridlock::pipeline {
namespace {

rules::RuleSet loadRules(const ScanRequest& o) {
  if (o.rules.empty()) {
    rules::RulePack all;
    all.name = "(no rules)";
    return rules::RuleSet({all});
  }
  rules::PackAnchor anchor;
  if (!o.rulesDir.empty()) anchor = {o.rulesDir, "beside " + o.rulesConfigName};
  return rules::RuleSet::load(o.rules, anchor);
}

// The command line's root and the directories above it were checked before the scan (main);
// an interrupted apply of a narrower root left its journal below, among the files seen.
void refuseJournaled(const ScanRun& run) {
  std::string held = apply::journalRootBelow(run.root, run.inventory.programFiles);
  if (!held.empty())
    throw std::runtime_error(apply::journalMessage(held, apply::journalState(held)));
}

// Each positional path selects some file a unit saw (a source, a header a unit includes, a
// directory holding one): a path that selects none (a README, a directory of no source)
// would otherwise be a scan of nothing, and a gate passed on it. A diff may touch no source;
// a shard may hold none of a path's units.
void requireSelected(const ScanRequest& o, const ScanRun& run) {
  if (o.filesFromDiff || !o.factsOut.empty()) return;
  const std::set<std::string>& seen = run.inventory.filesSeen;
  for (const std::string& given : o.files) {
    bool any = false;
    for (const std::string& rel : rootRelative(run.root, given)) {
      auto below = seen.lower_bound(rel + "/");
      any = any || (rel.empty() ? !seen.empty() : seen.count(rel) > 0) ||
            (below != seen.end() && below->starts_with(rel + "/"));
    }
    if (!any)
      throw std::runtime_error(given +
                               ": selects no Python or C++ source to scan (no unit is, or "
                               "includes, a file there); nothing would be checked");
  }
}

}  // namespace

ScanRun scan(const ScanRequest& o) {
  ScanRun run;
  if (!support::isDirectory(o.root))
    throw std::runtime_error("--root " + o.root + ": not a directory");
  run.root = support::realPath(o.root);
  run.rules = loadRules(o);
  run.subset = !o.files.empty() || o.filesFromDiff;
  std::vector<std::unique_ptr<Frontend>> frontends = frontendsFor(o, run.rules);
  Scope scope{run.root, run.rules, run.subset, {}};
  std::optional<Progress> progress;
  if (!o.quiet) {
    progress.emplace(Progress::forStderr());
    scope.onUnitDone = [&progress](size_t n, size_t total, const facts::UnitFacts& unit) {
      progress->unitDone(n, total, unit);
    };
  }
  std::vector<Units> scanned;
  for (const auto& f : frontends) scanned.push_back(f->scan(scope));
  if (progress) progress->finish();
  for (size_t i = 0; i < frontends.size(); ++i) frontends[i]->finish(scope, scanned[i]);
  if (!o.factsOut.empty()) writeShardFacts(o, scope, scanned);

  std::vector<facts::UnitFacts> units, context, seen;
  std::map<std::string, std::string> downstream;
  index::CacheCounts counts;
  bool selected = false;
  for (Units& s : scanned) {
    std::move(s.units.begin(), s.units.end(), std::back_inserter(units));
    std::move(s.context.begin(), s.context.end(), std::back_inserter(context));
    std::move(s.seen.begin(), s.seen.end(), std::back_inserter(seen));
    downstream.insert(s.downstream.begin(), s.downstream.end());
    counts.hits += s.cache.hits;
    counts.misses += s.cache.misses;
    selected = selected || s.selected;
  }
  run.inventory = run.subset ? index::mergeSubset(std::move(units), std::move(context),
                                                  o.rewriteFacts, std::move(seen))
                             : index::merge(std::move(units), std::move(seen), o.rewriteFacts);
  run.inventory.cache = counts;
  run.inventory.downstream = std::move(downstream);
  requireSelected(o, run);
  // A header's allow may cover a read of a unit this subset run did not scan.
  if (run.subset)
    std::erase_if(run.inventory.unusedAllows,
                  [](const facts::AllowFact& a) { return !a.mainFile; });
  refuseJournaled(run);
  analysis::launder(run.inventory, run.rules);
  // What one shard did not match another may: `gridlock merge` warns for the whole scan. A
  // diff may select no unit: nothing to warn of.
  if (o.factsOut.empty() && selected) warnUnmatched(run, o.cache.verbose);
  return run;
}

index::Inventory inventoryOf(std::vector<facts::TuFacts> units, const rules::RuleSet& rules,
                             bool rewriteFacts) {
  index::Inventory inv = index::merge(std::move(units), rewriteFacts);
  analysis::launder(inv, rules);
  return inv;
}

// Once per process, since the rewriter scans its own edits again.
void warnUnmatched(const ScanRun& run, bool verbose) {
  static std::set<std::string> said;
  const index::Inventory& inv = run.inventory;
  auto warn = [](const std::string& line) {
    if (said.insert(line).second) std::cerr << "gridlock: warning: " << line << "\n";
  };
  for (const auto& u : run.rules.unmatched(inv.rulesSeen, inv.filesSeen, inv.filesScanned,
                                           &analysis::anyTreeFileMatches, run.root)) {
    if (verbose || u.lines.size() == 1) {
      for (const auto& line : u.lines) warn(line);
      continue;
    }
    // A pack written for other code misses most of its entries: one line, not dozens.
    size_t units = inv.filesScanned;
    warn("pack " + u.pack + ": " + std::to_string(u.lines.size()) + " of its " +
         std::to_string(u.entries) + " entries matched nothing in " + std::to_string(units) +
         (units == 1 ? " translation unit" : " translation units") + " (-v lists them)");
  }
}

}  // namespace gridlock::pipeline
