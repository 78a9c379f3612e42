// gridlock gate: fail when any count of global reads rises above the baseline.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "cli/changed_files.h"
#include "cli/config_document.h"
#include "cli/gate_baseline.h"
#include "cli/gate_coverage.h"
#include "cli/gate_verdict.h"
#include "support/paths.h"

#include <iostream>
#include <memory>

namespace gridlock::cli {

Runner addGateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("gate", "Fail when any count of global reads rises");
  auto o = std::make_shared<ScanOptions>();
  auto baselinePath = std::make_shared<std::string>();
  auto update = std::make_shared<bool>(false);
  auto show = std::make_shared<GateShow>();
  auto allowUncovered = std::make_shared<bool>(false);
  addScanOptions(*cmd, *o);
  cmd->add_option("--baseline", *baselinePath,
                  "Baseline file (JSON; default: \"baseline\" of .gridlock.json)");
  cmd->add_flag("--update", *update,
                "Rewrite the baseline to the current counts; only ever shrinks it (creates it "
                "when missing)");
  addFormatOption(
      *cmd, show->format,
      {report::Format::Text, report::Format::Json, report::Format::Sarif, report::Format::Github});
  addOmitEdgesFlag(*cmd, show->omitEdges);
  cmd->add_option("-o,--output", show->output,
                  "Write the report here; the text verdict still goes to stdout");
  cmd->add_option("--changed-since", show->changedSince,
                  "Check only the files a git diff against REV touches (headers: the units "
                  "including them)");
  addAllowUncoveredFlag(*cmd, *allowUncovered);
  addStrictFlag(*cmd, show->strict);
  addColorOption(*cmd, show->color);
  addDocsUrlOption(*cmd, o->docsUrl);
  return [=]() {
    GateShow s = *show;
    ScanOptions opts = *o;
    std::optional<ProjectConfig> config = applyConfig(*cmd, opts);
    checkOmitEdges(s.omitEdges, s.format);
    std::string path = *baselinePath;
    if (path.empty() && config && config->baseline) {
      path = *config->baseline;
      requireTrusted(path, *config, "the baseline");
    }
    if (path.empty()) {
      std::cerr << "gridlock: error: no baseline: pass --baseline FILE or set "
                << (config ? ConfigDocument::keyIn(config->path, "baseline")
                           : std::string("\"baseline\" in a .gridlock.json"))
                << "\n";
      return 2;
    }
    if (!s.changedSince.empty() && !opts.files.empty()) {
      std::cerr << "gridlock: error: --changed-since selects the files itself; give no files\n";
      return 2;
    }
    if (!support::isDirectory(opts.root))
      throw std::runtime_error("--root " + opts.root + ": not a directory");
    std::string root = support::realPath(opts.root);

    // Read the baseline first, and check where the report goes: bad input before any parsing.
    GateBaseline b = readGateBaseline(path, root);
    checkOutputPath("-o", s.output);
    if (*update) checkOutputPath("--baseline", path);
    if (int rc = baselineMissing(b, *update, !opts.files.empty() || !s.changedSince.empty()))
      return rc;
    if (!s.changedSince.empty()) {
      s.changed = changedSince(s.changedSince, root);
      opts.files = s.changed.present;
      opts.filesFromDiff = true;
    }
    s.quiet = opts.quiet;
    s.docsUrl = opts.docsUrl;
    pipeline::ScanRun run = pipeline::scan(opts);
    if (int rc = parseErrorStatus(run, opts)) return rc;
    if (int rc = coverageStatus(run, coverageQuery(opts, root), *allowUncovered)) return rc;
    return gateVerdict(run, b, *update, s);
  };
}

}  // namespace gridlock::cli
