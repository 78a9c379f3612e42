// gridlock scan: the inventory of global reads.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "cli/scan_report.h"
#include "pipeline/frontend.h"
#include "pipeline/shard.h"

#include <unistd.h>

#include <iostream>
#include <memory>

namespace gridlock::cli {
namespace {

// --shard and --facts-out (pipeline/shard.h).
void addShardOptions(CLI::App& cmd, ScanOptions& o) {
  // The Python build has no merge and refuses both (pipeline/frontends_python.cpp): its help
  // says so rather than name a command it does not have.
  bool full = pipeline::readsCompileDatabases();
  cmd.add_option("--shard", o.shard,
                 full ? "Scan only shard I of N of the translation units (with --facts-out)"
                      : "The full build's (gridlock): scan only shard I of N of the units")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            return pipeline::parseShard(s) ? "" : "expected I/N with 1 <= I <= N, got " + s;
          },
          "I/N"));
  cmd.add_option("--facts-out", o.factsOut,
                 full ? "Write the scanned units' facts here for `gridlock merge` (no report)"
                      : "The full build's (gridlock): write the units' facts here (no report)");
}

}  // namespace

Runner addScanCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("scan", "Inventory of global process-group reads");
  auto o = std::make_shared<ScanOptions>();
  auto format = std::make_shared<report::Format>(report::Format::Text);
  auto output = std::make_shared<std::string>();
  addScanOptions(*cmd, *o);
  addFormatOption(
      *cmd, *format,
      {report::Format::Text, report::Format::Json, report::Format::Sarif, report::Format::Github});
  cmd->add_option("-o,--output", *output, "Write the report here instead of stdout");
  auto omitEdges = std::make_shared<bool>(false);
  addOmitEdgesFlag(*cmd, *omitEdges);
  auto color = std::make_shared<std::string>("auto");
  addColorOption(*cmd, *color);
  addDocsUrlOption(*cmd, o->docsUrl);
  auto plan = std::make_shared<bool>(false);
  cmd->add_flag("--plan", *plan,
                "Set each read's fix to what `gridlock rewrite` does with it, or why it leaves "
                "it (docs/rewrite.md)");
  addShardOptions(*cmd, *o);
  return [=]() {
    ScanOptions opts = *o;
    applyConfig(*cmd, opts);
    checkOmitEdges(*omitEdges, *format);
    opts.rewriteFacts = *plan;
    if (!opts.shard.empty() && opts.factsOut.empty()) {
      std::cerr << "gridlock: error: --shard needs --facts-out FILE (gridlock merge reads it)\n";
      return 2;
    }
    if (!opts.factsOut.empty() && !opts.files.empty()) {
      // A run over some paths decides on the rest of the tree too, which a facts file of its
      // units would leave out of the merge (docs/scan.md, "Partial runs").
      std::cerr << "gridlock: error: --facts-out takes no paths: a facts file holds the units "
                   "it scanned, not the rest of the tree a run over some paths decides on; "
                   "shard the whole tree, or scan the paths without --facts-out\n";
      return 2;
    }
    if (opts.factsOut.empty())
      checkOutputPath("-o", *output);
    else
      checkOutputPath("--facts-out", opts.factsOut);
    // Never freed (as clang's -disable-free): the process ends after the report, and the
    // kernel takes the pages back faster than the inventory's destructors would.
    pipeline::ScanRun& run = *new pipeline::ScanRun(pipeline::scan(opts));
    // A shard's report is `gridlock merge`'s to write.
    bool toStdout = output->empty() || *output == "-";
    if (opts.factsOut.empty())
      writeOutput(*output,
                  renderScan(run, *format, *plan, toStdout && colorOn(*color, STDOUT_FILENO),
                             opts.docsUrl, *omitEdges));
    return parseErrorStatus(run, opts);
  };
}

}  // namespace gridlock::cli
