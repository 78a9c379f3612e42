// gridlock gate: fail when any count of global reads rises above the baseline.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "analysis/baseline.h"
#include "analysis/summary.h"
#include "cli/changed_files.h"
#include "cli/gate_baseline.h"
#include "cli/sarif_fixes.h"
#include "frontend/file_places.h"
#include "report/gate_report.h"
#include "report/reports.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>

namespace gridlock::cli {
namespace {

struct GateFlags {
  std::string baseline;
  bool update = false;
  std::string format = "text";
  std::string output;
  std::string changedSince;
  std::string color = "auto";
};

// The baseline keys this run's counts speak for (analysis::Covers): only those may fall.
// A key is covered when its file was scanned whole (not in the chain of a parse error); in a
// run over some files, a laundered key (named for a helper, not a rule) is not, since its
// count depends on helpers anywhere. A full run also covers the files gone from the tree, and
// a run over a diff the files it deletes.
analysis::Covers coverage(const ScanRun& run, const std::set<std::string>& deleted) {
  return [&run, &deleted](const analysis::BaselineKey& k) {
    const index::Inventory& inv = run.inventory;
    if (inv.filesComplete.count(k.file))
      return !run.subset || run.rules.accessor(k.name) || run.rules.global(k.name);
    if (inv.filesSeen.count(k.file)) return false;
    if (run.subset && !deleted.count(k.file)) return false;
    std::string path = llvm::sys::path::is_absolute(k.file) ? k.file : run.root + "/" + k.file;
    return !llvm::sys::fs::exists(path);
  };
}

// Why a key that seems to have fallen keeps its count; "" for a file outside a run over some
// files (those are only counted).
std::string keptBecause(const ScanRun& run, const analysis::BaselineKey& k) {
  const index::Inventory& inv = run.inventory;
  if (inv.filesComplete.count(k.file))
    return "laundered reads depend on the whole program: run gate without files";
  if (inv.filesSeen.count(k.file)) return "its file failed to parse in this run";
  return run.subset ? "" : "not scanned by this run";
}

// The root-relative names of the deleted files under the root.
std::set<std::string> deletedUnderRoot(const ChangedFiles& changed, const std::string& root) {
  std::set<std::string> out;
  for (const auto& f : changed.deleted)
    if (llvm::StringRef(f).starts_with(root + "/")) out.insert(f.substr(root.size() + 1));
  return out;
}

// Writes the report in --format to -o (or stdout), and the text verdict to stdout when the
// report does not go there (to stderr when a JSON or SARIF report does), then returns the exit
// status.
int emit(const GateFlags& f, const ScanOptions& o, const ScanRun& run,
         const report::GateOutcome& g) {
  report::TextStyle style{colorOn(f.color, STDOUT_FILENO), o.quiet};
  bool toStdout = f.output.empty() || f.output == "-";
  std::string text;
  if (f.format == "json")
    text = report::gateJson(run.inventory, g);
  else if (f.format == "sarif")
    text = report::gateSarif(
        run.inventory, g, report::sarifRootUri(run.root),
        substitutionFixes(run.inventory, rewrite::plan(run.inventory, run.rules)));
  else
    text = report::gateText(run.inventory, g, toStdout ? style : report::TextStyle{false, o.quiet});
  writeOutput(f.output, text);
  if (!toStdout)
    std::cout << report::gateText(run.inventory, g, style) << std::flush;
  else if (f.format != "text" && !o.quiet)
    std::cerr << report::gateVerdictLine(g);
  return report::exitStatus(g);
}

}  // namespace

Runner addGateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("gate", "Fail when any count of global reads rises");
  auto o = std::make_shared<ScanOptions>();
  auto f = std::make_shared<GateFlags>();
  addScanOptions(*cmd, *o);
  cmd->add_option("--baseline", f->baseline,
                  "Baseline file (JSON; default: \"baseline\" of .gridlock.json)");
  cmd->add_flag("--update", f->update,
                "Rewrite the baseline to the current counts; only ever shrinks it (creates it "
                "when missing)");
  cmd->add_option("--format", f->format, "text | json | sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  cmd->add_option("-o,--output", f->output,
                  "Write the report here; the text verdict still goes to stdout");
  cmd->add_option("--changed-since", f->changedSince,
                  "Check only the files a git diff against REV touches (headers: the units "
                  "including them)");
  addColorOption(*cmd, f->color);
  return [=]() {
    GateFlags flags = *f;
    ScanOptions opts = *o;
    std::optional<ProjectConfig> config = applyConfig(*cmd, opts);
    if (flags.baseline.empty() && config && config->baseline) flags.baseline = *config->baseline;
    if (flags.baseline.empty()) {
      std::cerr << "gridlock: error: no baseline: pass --baseline FILE or set \"baseline\" in "
                << (config ? config->path : std::string("a .gridlock.json")) << "\n";
      return 2;
    }
    if (!flags.changedSince.empty() && !opts.files.empty()) {
      std::cerr << "gridlock: error: --changed-since selects the files itself; give no files\n";
      return 2;
    }
    if (!llvm::sys::fs::is_directory(opts.root))
      throw std::runtime_error("--root " + opts.root + ": not a directory");
    std::string root = frontend::realPath(opts.root);

    // Read the baseline first: a bad one is bad input before any parsing work.
    GateBaseline b = readGateBaseline(flags.baseline, root);
    if (!b.exists && !flags.update) {
      std::cerr << "gridlock: error: no baseline at " << flags.baseline
                << "; create it with `gridlock gate ... --update`\n";
      return 2;
    }
    ChangedFiles changed;
    if (!flags.changedSince.empty()) {
      changed = changedSince(flags.changedSince, root);
      opts.files = changed.present;
      opts.filesFromDiff = true;
    }
    if (!b.exists && (!opts.files.empty() || opts.filesFromDiff)) {
      // It would hold those files' keys only, and fail the next full gate on all the others.
      std::cerr << "gridlock: error: refusing to create the baseline " << flags.baseline
                << " from a run over some files only; run gate --update without files\n";
      return 2;
    }

    ScanRun run = runScan(opts);
    if (int rc = parseErrorStatus(run, opts)) return rc;
    analysis::Baseline current = analysis::baselineOf(run.inventory);
    analysis::Summary s = analysis::summarize(run.inventory);

    report::GateOutcome g;
    g.baselinePath = flags.baseline;
    g.total = s.total;
    g.keys = current.size();
    g.filesScanned = s.filesScanned;
    g.filesSeen = run.inventory.filesSeen.size();
    g.subset = run.subset;
    g.update = flags.update;
    g.changedSince = flags.changedSince;
    g.changedFiles = changed.present.size() + changed.deleted.size();

    if (!b.exists) {
      writeOutput(b.path, analysis::serializeBaseline(current, b.root));
      g.verdict = report::GateVerdict::Created;
      g.nextTotal = s.total;
      return emit(flags, opts, run, g);
    }

    std::set<std::string> deleted = deletedUnderRoot(changed, run.root);
    analysis::Covers covers = coverage(run, deleted);
    g.result = analysis::compare(b.baseline, current, covers);
    for (const auto& c : g.result.kept) {
      g.keptWhy.push_back(keptBecause(run, c.key));
      if (g.keptWhy.back().empty()) ++g.outside;
    }
    analysis::Baseline next = analysis::updated(b.baseline, current, covers);
    g.baselineTotal = analysis::totalOf(b.baseline);
    g.nextTotal = analysis::totalOf(next);
    if (g.result.failed()) {
      g.verdict = report::GateVerdict::Failed;
    } else if (!g.result.fell.empty() && flags.update) {
      // A baseline that records its root keeps it; one without stays without, so that only
      // the counts of this run's keys change.
      writeOutput(b.path, analysis::serializeBaseline(next, b.recordedRoot));
      g.verdict = report::GateVerdict::Shrunk;
    }
    return emit(flags, opts, run, g);
  };
}

}  // namespace gridlock::cli
