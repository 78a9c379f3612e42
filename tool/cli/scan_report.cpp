#include "cli/scan_report.h"

#include "analysis/summary.h"
#include "report/reports.h"
#include "rewrite/plan.h"

#include <optional>

namespace gridlock::cli {

std::string renderScan(const ScanRun& run, const std::string& format, bool plan) {
  std::optional<rewrite::Plan> planned;
  if (plan) planned = rewrite::plan(run.inventory, run.rules);
  const report::Verdicts* verdicts = planned ? &planned->verdicts : nullptr;
  analysis::Summary s = analysis::summarize(run.inventory, verdicts);
  if (format == "json") return report::json(run.inventory, s, verdicts);
  if (format == "sarif")
    return report::sarif(run.inventory, report::sarifRootUri(run.root), verdicts);
  return report::diagnosticsText(run.inventory, verdicts) + "\n" + report::summaryTable(s);
}

}  // namespace gridlock::cli
