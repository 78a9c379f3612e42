// The gate's verdict on a scan against its baseline, shared by `gridlock gate` and
// `gridlock merge --baseline` (which must give the same bytes and exit status): the
// comparison, the baseline write (created, or shrunk by --update), and the report in
// --format to -o or stdout (report/gate_report.h).
#pragma once

#include "cli/changed_files.h"
#include "cli/gate_baseline.h"
#include "cli/scan_options.h"

#include <string>

namespace gridlock::cli {

// How the verdict is shown, and what a run over a diff adds to it.
struct GateShow {
  report::Format format = report::Format::Text;
  std::string output;  // -o; "" or "-": stdout
  std::string color = "auto";
  bool quiet = false;
  std::string docsUrl;       // SARIF's help links (report::SarifExtras::docsUrl)
  bool omitEdges = false;    // --omit-edges: SARIF without edge files' results
  bool strict = false;       // --strict: fallen counts not tightened fail the gate
  std::string changedSince;  // --changed-since REV, or ""
  ChangedFiles changed;      // what the diff touches
};

// --strict on `cmd` (gate, merge --baseline).
CLI::Option* addStrictFlag(CLI::App& cmd, bool& strict);

// 0, or 2 with the error printed: no baseline and no --update to create it, or one to create
// from a run over some files only (it would fail the next full gate on all other files).
int baselineMissing(const GateBaseline& b, bool update, bool subset);

// Prints or writes the verdict and returns the exit status (0 passed, 1 rose, 2 a baseline to
// create from a run over some files only); writes the baseline when it is created or `update`
// shrinks it. A run that may write takes BASELINE.lock (support/lock_file.h), waiting while
// another holds it, and reads the baseline again under it: `scanned` is what was read before
// the scan, to fail fast on a bad file; two gate --update runs at once both keep their
// tightenings.
int gateVerdict(const pipeline::ScanRun& run, const GateBaseline& scanned, bool update,
                const GateShow& show = {});

}  // namespace gridlock::cli
