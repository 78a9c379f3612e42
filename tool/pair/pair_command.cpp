// The `pair` subcommand: flags -> PairOptions -> runPair (the logic lives in gridlock_pair).
#include "cli/command.h"
#include "pair/runner.h"
#include "support/atomic_write.h"

#include <iostream>
#include <memory>

namespace gridlock::cli {

Runner addPairCommand(CLI::App& app) {
  auto options = std::make_shared<pair::PairOptions>();
  CLI::App* cmd = app.add_subcommand(
      "pair", "Paired validation: run the same tests on a baseline and a change, compare per test");
  cmd->add_option("--baseline", options->baseline, "Baseline tree: a directory or a git revision");
  cmd->add_option("--change", options->change, "Changed tree: a directory or a git revision");
  cmd->add_option("--test", options->test,
                  "Test command, run through /bin/sh in each tree; writes results under "
                  "$GRIDLOCK_RESULTS_DIR (see docs/pair.md)");
  cmd->add_option("--build", options->build, "Build command, run once in each tree first");
  cmd->add_option("--reruns", options->reruns,
                  "Reruns of tests that fail only with the change (default 2)");
  cmd->add_option("--baseline-results", options->baselineResults,
                  "Compare results already collected: the baseline's results directory");
  cmd->add_option("--change-results", options->changeResults,
                  "Compare results already collected: the change's results directory");
  cmd->add_option("--format", options->format, "Report format: text, json or markdown");
  cmd->add_option("-o,--output", options->output, "Write the report to FILE instead of stdout");
  cmd->add_option("--ranks", options->ranks,
                  "Ranks every test binary must report (default: inferred from result files)");
  cmd->add_option("--timeout", options->timeout,
                  "Seconds a test command run may take before its process group is killed "
                  "(default " +
                      std::to_string(pair::kDefaultTimeout) + "; 0: no limit)");
  cmd->add_option("--build-timeout", options->buildTimeout,
                  "Seconds a build command may take (default and 0: no limit)");
  cmd->add_option("--results-dir", options->resultsDir,
                  "Keep collected results here (default: a temporary directory)");
  cmd->add_option("--repo", options->repo, "Repository for git revisions (default: .)");
  return [options] {
    // Before the builds and test runs, not after them.
    if (std::string why = options->output.empty() ? "" : support::whyUnwritable(options->output);
        !why.empty()) {
      std::cerr << "gridlock pair: error: -o " << options->output << ": " << why << "\n";
      return 2;
    }
    return pair::runPair(*options, std::cout, std::cerr);
  };
}

}  // namespace gridlock::cli
