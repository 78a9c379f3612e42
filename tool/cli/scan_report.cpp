#include "cli/scan_report.h"

#include "analysis/summary.h"
#include "report/reports.h"
#include "rewrite/core/fixes.h"
#include "rewrite/core/planner.h"
#include "rewrite/core/rewriter.h"
#include "rewrite/python/plan.h"
#include "rewrite/python/py_state.h"

#include <optional>

namespace gridlock::cli {
namespace {

// The plan of every read, what `scan --plan` reports: the C++ backend's, then tool/rewrite/python's
// of the Python reads (files read from the scan's root) over it.
rewrite::Plan planAll(const pipeline::ScanRun& run) {
  rewrite::Plan out = sarifPlan(run);
  rewrite::py::mergeInto(run.inventory, rewrite::py::plan(run.inventory, run.rules, run.root)->plan,
                         out);
  return out;
}

}  // namespace

std::string renderScan(const pipeline::ScanRun& run, report::Format format, bool plan, bool color,
                       const std::string& docsUrl, bool omitEdges) {
  std::optional<rewrite::Plan> planned;
  if (plan) planned = planAll(run);
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
  rewrite::Rewriters cpp = rewrite::rewritersFor({});
  std::erase_if(cpp, [](const auto& b) { return b->language() != facts::Language::Cpp; });
  return rewrite::planReads(run.inventory, run.rules, run.root, cpp);
}

}  // namespace gridlock::cli
