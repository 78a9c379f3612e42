#include "cli/gate_verdict.h"

#include "analysis/summary.h"
#include "support/file_io.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <iostream>

namespace gridlock::cli {
namespace {

// The baseline keys this run's counts speak for (analysis::Covers): only those may fall.
// A key is covered when its file was scanned whole (not in the chain of a parse error); in a
// run over some files, a laundered key (named for a helper, not a rule) is not, since its
// count depends on helpers anywhere. A full run also covers the files gone from the tree.
analysis::Covers coverage(const ScanRun& run) {
  return [&run](const analysis::BaselineKey& k) {
    const index::Inventory& inv = run.inventory;
    if (inv.filesComplete.count(k.file))
      return !run.subset || run.rules.accessor(k.name) || run.rules.global(k.name);
    if (run.subset || inv.filesSeen.count(k.file)) return false;
    std::string path = llvm::sys::path::is_absolute(k.file) ? k.file : run.root + "/" + k.file;
    return !llvm::sys::fs::exists(path);
  };
}

// Why a key that seems to have fallen keeps its count; "" for a file outside a run over some
// files (those are only counted).
std::string keptBecause(const ScanRun& run, const analysis::BaselineKey& k) {
  const index::Inventory& inv = run.inventory;
  if (inv.filesComplete.count(k.file))
    return "laundered reads depend on the whole program: run gate without files";
  if (inv.filesSeen.count(k.file)) return "its file failed to parse in this run";
  return run.subset ? "" : "not scanned by this run";
}

// A baseline of some files only would hold their keys alone, and fail the next full gate on
// all the others.
int refuseSubsetBaseline(const std::string& path) {
  std::cerr << "gridlock: error: refusing to create the baseline " << path
            << " from a run over some files only; run gate --update without files\n";
  return 2;
}

}  // namespace

std::optional<GateBaseline> readGateBaseline(const std::string& path, bool update, bool subset,
                                             int& status) {
  GateBaseline b;
  b.path = path;
  b.exists = llvm::sys::fs::exists(path);
  if (b.exists) {
    std::optional<std::string> text = support::readFile(path);
    if (!text) throw std::runtime_error(path + ": cannot read baseline");
    b.baseline = analysis::parseBaseline(*text, path);
  } else if (!update) {
    std::cerr << "gridlock: error: no baseline at " << path
              << "; create it with `gridlock gate ... --update`\n";
    status = 2;
    return std::nullopt;
  } else if (subset) {
    status = refuseSubsetBaseline(path);
    return std::nullopt;
  }
  return b;
}

int gateVerdict(const ScanRun& run, const GateBaseline& b, bool update) {
  const analysis::Baseline& baseline = b.baseline;
  analysis::Baseline current = analysis::baselineOf(run.inventory);
  analysis::Summary s = analysis::summarize(run.inventory);

  for (const auto& r : run.inventory.reads)
    if (r.suppressed)
      std::cout << "allowed: " << r.file << ":" << r.line << ": " << r.name << " (" << *r.suppressed
                << ")\n";
  for (const auto& bad : run.inventory.badSuppressions)
    std::cout << "warning: " << bad.file << ":" << bad.line
              << ": `gridlock: allow` without a reason is ignored\n";

  if (!b.exists) {
    if (run.subset) return refuseSubsetBaseline(b.path);  // merge learns it from the shards
    writeOutput(b.path, analysis::serializeBaseline(current));
    std::cout << "gate: created baseline " << b.path << " with " << s.total << " reads in "
              << current.size() << " keys\n";
    return 0;
  }

  analysis::Covers covers = coverage(run);
  analysis::GateResult g = analysis::compare(baseline, current, covers);
  for (const auto& c : g.added)
    std::cout << "new:  " << c.key.str() << ": " << c.after << " read(s) not in the baseline\n";
  for (const auto& c : g.rose)
    std::cout << "rose: " << c.key.str() << ": " << c.before << " -> " << c.after << "\n";
  for (const auto& c : g.fell)
    std::cout << "fell: " << c.key.str() << ": " << c.before << " -> " << c.after << "\n";
  size_t outside = 0;  // keys of files a run over some files did not reach
  for (const auto& c : g.kept) {
    std::string why = keptBecause(run, c.key);
    if (why.empty())
      ++outside;
    else
      std::cout << "kept: " << c.key.str() << ": " << c.before << " (" << why << ")\n";
  }
  if (outside)
    std::cout << "gate: " << outside << " key(s) of files this run did not scan left as they are\n";

  analysis::Baseline next = analysis::updated(baseline, current, covers);
  size_t before = analysis::totalOf(baseline), after = analysis::totalOf(next);
  if (g.failed()) {
    std::cout << "gate: FAILED: global reads rose (" << before << " in the baseline, " << after
              << " now)" << (update ? "; refusing to grow the baseline" : "") << "\n";
    return 1;
  }
  if (g.fell.empty()) {
    bool partial = run.subset || !g.kept.empty();
    std::cout << "gate: passed: " << s.total << " global reads"
              << (partial ? " in the " + std::to_string(run.inventory.filesSeen.size()) +
                                " file(s) scanned"
                          : std::string())
              << ", as in the baseline\n";
    return 0;
  }
  if (update) {
    writeOutput(b.path, analysis::serializeBaseline(next));
    std::cout << "gate: baseline shrunk from " << before << " to " << after << " reads\n";
    return 0;
  }
  std::cout << "gate: passed: counts fell from " << before << " to " << after
            << "; run with --update to shrink the baseline\n";
  return 0;
}

}  // namespace gridlock::cli
