// gridlock gate: fail when any count of global reads rises above the baseline.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "cli/gate_verdict.h"

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
    int status = 0;
    std::optional<GateBaseline> baseline =
        readGateBaseline(*baselinePath, *update, !o->files.empty(), status);
    if (!baseline) return status;
    ScanRun run = runScan(*o);
    if (int rc = parseErrorStatus(run, *o)) return rc;
    return gateVerdict(run, *baseline, *update);
  };
}

}  // namespace gridlock::cli
