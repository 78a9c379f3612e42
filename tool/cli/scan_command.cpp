// gridlock scan: the inventory of global reads.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "analysis/summary.h"
#include "report/reports.h"
#include "rewrite/plan.h"

#include <iostream>
#include <memory>

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
  auto plan = std::make_shared<bool>(false);
  cmd->add_flag("--plan", *plan,
                "Set each read's fix to what `gridlock rewrite` does with it, or why it leaves "
                "it (docs/rewrite.md)");
  return [=]() {
    rewrite::ThreadFacts threadFacts;
    ScanOptions opts = *o;
    if (*plan)
      opts.onFacts = [&threadFacts](const std::vector<facts::TuFacts>& tus) { threadFacts.add(tus); };
    ScanRun run = runScan(opts);
    if (*plan) run.inventory.reads = rewrite::plan(run.inventory, run.rules, &threadFacts).reads;
    analysis::Summary s = analysis::summarize(run.inventory);
    std::string text;
    if (*format == "json")
      text = report::json(run.inventory, s);
    else if (*format == "sarif")
      text = report::sarif(run.inventory, "file://" + run.root + "/");
    else
      text = report::diagnosticsText(run.inventory) + "\n" + report::summaryTable(s);
    writeOutput(*output, text);
    return parseErrorStatus(run, *o);
  };
}

}  // namespace gridlock::cli
