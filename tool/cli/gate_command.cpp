// gridlock gate: fail when any count of global reads rises above the baseline.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "analysis/baseline.h"
#include "analysis/summary.h"
#include "support/file_io.h"

#include <llvm/Support/FileSystem.h>

#include <iostream>
#include <memory>

namespace gridlock::cli {

Runner addGateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("gate", "Fail when any count of global reads rises");
  auto o = std::make_shared<ScanOptions>();
  auto baselinePath = std::make_shared<std::string>();
  auto update = std::make_shared<bool>(false);
  addScanOptions(*cmd, *o);
  cmd->add_option("--baseline", *baselinePath, "Baseline file (JSON)")->required();
  cmd->add_flag("--update", *update,
                "Rewrite the baseline to the current counts; only ever shrinks it (creates it "
                "when missing)");
  return [=]() {
    // Read the baseline first: a bad one is bad input before any parsing work.
    bool exists = llvm::sys::fs::exists(*baselinePath);
    analysis::Baseline baseline;
    if (exists) {
      std::optional<std::string> text = support::readFile(*baselinePath);
      if (!text) throw std::runtime_error(*baselinePath + ": cannot read baseline");
      baseline = analysis::parseBaseline(*text, *baselinePath);
    } else if (!*update) {
      std::cerr << "gridlock: error: no baseline at " << *baselinePath
                << "; create it with `gridlock gate ... --update`\n";
      return 2;
    }

    ScanRun run = runScan(*o);
    if (int rc = parseErrorStatus(run, *o)) return rc;
    analysis::Baseline current = analysis::baselineOf(run.inventory);
    analysis::Summary s = analysis::summarize(run.inventory);

    for (const auto& r : run.inventory.reads)
      if (r.suppressed)
        std::cout << "allowed: " << r.file << ":" << r.line << ": " << r.name << " ("
                  << *r.suppressed << ")\n";
    for (const auto& b : run.inventory.badSuppressions)
      std::cout << "warning: " << b.file << ":" << b.line
                << ": `gridlock: allow` without a reason is ignored\n";

    if (!exists) {
      writeOutput(*baselinePath, analysis::serializeBaseline(current));
      std::cout << "gate: created baseline " << *baselinePath << " with " << s.total
                << " reads in " << current.size() << " keys\n";
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
                << " now)" << (*update ? "; refusing to grow the baseline" : "") << "\n";
      return 1;
    }
    if (g.fell.empty()) {
      std::cout << "gate: passed: " << s.total << " global reads, as in the baseline\n";
      return 0;
    }
    if (*update) {
      writeOutput(*baselinePath, analysis::serializeBaseline(current));
      std::cout << "gate: baseline shrunk from " << before << " to " << s.total << " reads\n";
      return 0;
    }
    std::cout << "gate: passed: counts fell from " << before << " to " << s.total
              << "; run with --update to shrink the baseline\n";
    return 0;
  };
}

}  // namespace gridlock::cli
