#include "cli/gate_verdict.h"

#include "analysis/summary.h"
#include "support/file_io.h"

#include <llvm/Support/FileSystem.h>

#include <iostream>

namespace gridlock::cli {

std::optional<GateBaseline> readGateBaseline(const std::string& path, bool update, int& status) {
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
    writeOutput(b.path, analysis::serializeBaseline(current));
    std::cout << "gate: created baseline " << b.path << " with " << s.total << " reads in "
              << current.size() << " keys\n";
    return 0;
  }

  analysis::GateResult g = analysis::compare(baseline, current);
  for (const auto& c : g.added)
    std::cout << "new:  " << c.key.str() << ": " << c.after << " read(s) not in the baseline\n";
  for (const auto& c : g.rose)
    std::cout << "rose: " << c.key.str() << ": " << c.before << " -> " << c.after << "\n";
  for (const auto& c : g.fell)
    std::cout << "fell: " << c.key.str() << ": " << c.before << " -> " << c.after << "\n";

  size_t before = 0;
  for (const auto& [k, n] : baseline) before += n;
  if (g.failed()) {
    std::cout << "gate: FAILED: global reads rose (" << before << " in the baseline, " << s.total
              << " now)" << (update ? "; refusing to grow the baseline" : "") << "\n";
    return 1;
  }
  if (g.fell.empty()) {
    std::cout << "gate: passed: " << s.total << " global reads, as in the baseline\n";
    return 0;
  }
  if (update) {
    writeOutput(b.path, analysis::serializeBaseline(current));
    std::cout << "gate: baseline shrunk from " << before << " to " << s.total << " reads\n";
    return 0;
  }
  std::cout << "gate: passed: counts fell from " << before << " to " << s.total
            << "; run with --update to shrink the baseline\n";
  return 0;
}

}  // namespace gridlock::cli
