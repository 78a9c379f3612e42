#include "cli/gate_verdict.h"

#include "analysis/gate_policy.h"
#include "analysis/summary.h"
#include "cli/scan_report.h"
#include "report/gate_report.h"
#include "report/reports.h"
#include "rewrite/core/fixes.h"
#include "support/lock_file.h"

#include <unistd.h>

#include <iostream>
#include <optional>
#include <set>

namespace gridlock::cli {
namespace {

// Writes the report in --format to -o (or stdout), and the text verdict to stdout when the
// report does not go there (to stderr when a JSON, SARIF or GitHub report does), then returns
// the exit status.
int emit(const GateShow& f, const pipeline::ScanRun& run, const report::GateOutcome& g) {
  report::TextStyle style{colorOn(f.color, STDOUT_FILENO), f.quiet};
  bool toStdout = f.output.empty() || f.output == "-";
  std::string text;
  if (f.format == report::Format::Json) {
    text = report::gateJson(run.inventory, g);
  } else if (f.format == report::Format::Github) {
    text = report::gateGithub(run.inventory, g);
  } else if (f.format == report::Format::Sarif) {
    text = report::gateSarif(run.inventory, g, report::sarifRootUri(run.root),
                             rewrite::suggestedFixes(run.inventory, sarifPlan(run)), f.docsUrl,
                             f.omitEdges);
  } else {
    text = report::gateText(run.inventory, g, toStdout ? style : report::TextStyle{false, f.quiet});
  }
  writeOutput(f.output, text);
  if (!toStdout)
    std::cout << report::gateText(run.inventory, g, style) << std::flush;
  else if (f.format != report::Format::Text && !f.quiet)
    std::cerr << report::gateVerdictLine(g);
  return report::exitStatus(g);
}

}  // namespace

CLI::Option* addStrictFlag(CLI::App& cmd, bool& strict) {
  return cmd.add_flag("--strict", strict,
                      "Fail (exit 1) when counts fell and the baseline was not tightened "
                      "(--update), or an allow covers no read: the ratchet keeps no slack");
}

int baselineMissing(const GateBaseline& b, bool update, bool subset) {
  if (b.exists) return 0;
  if (!update) {
    std::cerr << "gridlock: error: no baseline at " << b.path
              << "; create it with `gridlock gate ... --update`\n";
    return 2;
  }
  if (subset) {
    std::cerr << "gridlock: error: refusing to create the baseline " << b.path
              << " from a run over some files only; run gate --update without files\n";
    return 2;
  }
  return 0;
}

int gateVerdict(const pipeline::ScanRun& run, const GateBaseline& scanned, bool update,
                const GateShow& show) {
  // A run that may write the baseline decides from the baseline as it is now, under its lock:
  // another gate --update may have tightened it since it was first read (before the scan).
  std::optional<support::LockFile> lock;
  GateBaseline b = scanned;
  if (update || !scanned.exists) {
    lock.emplace(scanned.path);
    b = readGateBaseline(scanned.path, run.root);
  }
  analysis::Baseline current = analysis::baselineOf(run.inventory);
  analysis::Summary s = analysis::summarize(run.inventory);

  report::GateOutcome g;
  g.baselinePath = b.path;
  g.total = s.total;
  g.writes = analysis::totalOf(current, true);
  g.keys = current.size();
  g.filesScanned = s.filesScanned;
  g.filesSeen = run.inventory.filesSeen.size();
  g.subset = run.subset;
  g.update = update;
  g.changedSince = show.changedSince;
  g.strict = show.strict;
  g.changedFiles = show.changed.present.size() + show.changed.deleted.size();

  if (!b.exists) {
    // merge learns only from the shards that the scan was a subset
    if (int rc = baselineMissing(b, update, run.subset)) return rc;
    writeOutput(b.path, analysis::serializeBaseline(current, b.root));
    g.verdict = report::GateVerdict::Created;
    g.nextTotal = s.total;
    g.nextWrites = g.writes;
    return emit(show, run, g);
  }

  // A baseline made before writes were gated judges no write; a full --update records them
  // (a run over some files would record only theirs, and the next full gate would fail on the
  // rest).
  g.writesChecked = b.recordsWrites;
  const bool record = !b.recordsWrites && update && !run.subset;
  analysis::Baseline judged = b.recordsWrites ? current : analysis::readsOf(current);
  analysis::GatedRun gated{run.inventory, run.rules, run.root, run.subset};
  analysis::Covers covers =
      analysis::coverage(gated, analysis::deletedUnderRoot(show.changed.deleted, run.root));
  g.result = analysis::compare(b.baseline, judged, covers);
  for (const auto& c : g.result.kept) {
    g.keptWhy.push_back(analysis::keptBecause(gated, c.key));
    if (g.keptWhy.back().empty()) ++g.outside;
  }
  analysis::Baseline next = analysis::updated(b.baseline, judged, covers);
  if (record)
    for (const auto& [k, n] : current)
      if (k.write) next[k] = n;
  g.baselineTotal = analysis::totalOf(b.baseline);
  g.nextTotal = analysis::totalOf(next);
  g.baselineWrites = analysis::totalOf(b.baseline, true);
  g.nextWrites = analysis::totalOf(next, true);
  // --strict: counts that fell and a baseline not tightened, or an allow that covers no read,
  // is slack the ratchet keeps no more (an --update run tightens and is not judged on it).
  g.unusedAllows = run.inventory.unusedAllows.size();
  g.slackFailed = show.strict && !update && (!g.result.fell.empty() || g.unusedAllows);
  if (g.result.failed() || g.slackFailed) {
    g.verdict = report::GateVerdict::Failed;
  } else if (update && (!g.result.fell.empty() || record)) {
    // A baseline that records its root keeps it; one without stays without, so that only
    // the counts of this run's keys change.
    writeOutput(b.path,
                analysis::serializeBaseline(next, b.recordedRoot, b.recordsWrites || record));
    g.writesRecorded = record;
    g.verdict = g.result.fell.empty() ? report::GateVerdict::Recorded : report::GateVerdict::Shrunk;
  }
  return emit(show, run, g);
}

}  // namespace gridlock::cli
