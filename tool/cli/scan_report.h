// The report of `gridlock scan` from a finished scan, shared with `gridlock merge` (which must
// give the same bytes).
#pragma once

#include "cli/scan_options.h"
#include "rewrite/core/plan.h"

#include <string>

namespace gridlock::cli {

// `format`: text, json, sarif or github. `plan`: each read's fix is what the rewriter does with
// it (the scan collected the rewriter's facts).
// `color`: the text diagnostics in clang's colours. SARIF carries the plan's substitutions as
// fixes (rewrite/core/fixes.h) and links its rules' help under `docsUrl` (report::SarifExtras).
// `omitEdges`: no finding for an edge file's reads and writes (--omit-edges).
std::string renderScan(const pipeline::ScanRun& run, report::Format format, bool plan,
                       bool color = false, const std::string& docsUrl = "", bool omitEdges = false);

// The plan SARIF's fixes come from without --plan (scan and gate alike): the C++ backend's
// alone, so Python reads get none there.
rewrite::Plan sarifPlan(const pipeline::ScanRun& run);

}  // namespace gridlock::cli
