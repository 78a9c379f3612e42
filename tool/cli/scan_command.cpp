// gridlock scan: the inventory of global reads.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "cli/sarif_fixes.h"

#include "analysis/summary.h"
#include "report/reports.h"
#include "rewrite/plan.h"

#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>

namespace gridlock::cli {

Runner addScanCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("scan", "Inventory of global process-group reads");
  auto o = std::make_shared<ScanOptions>();
  auto format = std::make_shared<std::string>("text");
  auto output = std::make_shared<std::string>();
  addScanOptions(*cmd, *o);
  cmd->add_option("--format", *format, "text | json | sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  cmd->add_option("-o,--output", *output, "Write the report here instead of stdout");
  auto color = std::make_shared<std::string>("auto");
  addColorOption(*cmd, *color);
  auto plan = std::make_shared<bool>(false);
  cmd->add_flag("--plan", *plan,
                "Set each read's fix to what `gridlock rewrite` does with it, or why it leaves "
                "it (docs/rewrite.md)");
  return [=]() {
    ScanOptions opts = *o;
    applyConfig(*cmd, opts);
    opts.rewriteFacts = *plan;
    ScanRun run = runScan(opts);
    std::optional<rewrite::Plan> planned;
    if (*plan) planned = rewrite::plan(run.inventory, run.rules);
    const report::Verdicts* verdicts = planned ? &planned->verdicts : nullptr;
    analysis::Summary s = analysis::summarize(run.inventory, verdicts);
    std::string text;
    if (*format == "json")
      text = report::json(run.inventory, s, verdicts);
    else if (*format == "sarif") {
      // Substitutions as SARIF fixes; without --plan, from a plan of this scan's facts.
      rewrite::Plan fixesPlan = planned ? *planned : rewrite::plan(run.inventory, run.rules);
      report::SarifExtras extras;
      extras.fixes = substitutionFixes(run.inventory, fixesPlan);
      text = report::sarif(run.inventory, report::sarifRootUri(run.root), verdicts, &extras);
    } else
      text = report::diagnosticsText(
                 run.inventory, verdicts,
                 (output->empty() || *output == "-") && colorOn(*color, STDOUT_FILENO)) +
             "\n" + report::summaryTable(s);
    writeOutput(*output, text);
    return parseErrorStatus(run, opts);
  };
}

}  // namespace gridlock::cli
