#include "cli/scan_report.h"

#include "analysis/summary.h"
#include "report/reports.h"
#include "rewrite/core/fixes.h"
#include "rewrite/core/planner.h"
#include "rewrite/core/rewriter.h"

#include <optional>

namespace gridlock::cli {

std::string renderScan(const pipeline::ScanRun& run, report::Format format, bool plan, bool color,
                       const std::string& docsUrl, bool omitEdges) {
  std::optional<rewrite::Plan> planned;
  if (plan) {  // every backend's plan, what `scan --plan` reports
    rewrite::Rewriters all = rewrite::rewritersFor({});
    planned = rewrite::planReads(run.inventory, run.rules, run.root, all);
  }
  const report::Verdicts* verdicts = planned ? &planned->verdicts : nullptr;
  analysis::Summary s = analysis::summarize(run.inventory, verdicts);
  if (format == report::Format::Json) return report::json(run.inventory, s, verdicts);
  if (format == report::Format::Github)
    return report::githubAnnotations(run.inventory, verdicts, omitEdges);
  if (format == report::Format::Sarif) {
    // Substitutions as SARIF fixes; without --plan, from a plan of this scan's facts.
    report::SarifExtras extras;
    extras.docsUrl = docsUrl;
    extras.omitEdges = omitEdges;
    extras.fixes = rewrite::suggestedFixes(run.inventory, planned ? *planned : sarifPlan(run));
    return report::sarif(run.inventory, report::sarifRootUri(run.root), verdicts, &extras);
  }
  return report::diagnosticsText(run.inventory, verdicts, color, omitEdges) + "\n" +
         report::summaryTable(s);
}

rewrite::Plan sarifPlan(const pipeline::ScanRun& run) {
  rewrite::Rewriters all = rewrite::rewritersFor({});
  return rewrite::planReads(run.inventory, run.rules, run.root, all, facts::Language::Cpp);
}

}  // namespace gridlock::cli
