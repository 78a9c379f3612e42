// `gridlock pair` end to end: trees -> build -> test (+ reruns) -> results -> comparison -> report.
#pragma once

#include "pair/comparison.h"
#include "pair/rerun_filter.h"

#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::pair {

inline constexpr int kDefaultTimeout = 3600;

struct PairOptions {
  std::string baseline, change;                // directories or git revisions
  std::string baselineResults, changeResults;  // results already collected (instead of running)
  std::string test, build;                     // shell commands, run in each tree
  int reruns = 2;
  int ranks = 0;  // expected ranks per test binary; 0: infer from the result files
  // Seconds per test command run; 0: none. An hour: far beyond a healthy suite's run (minutes),
  // so only a hang reaches it, and still inside a CI job's limit, so the report gets written.
  int timeout = kDefaultTimeout;
  int buildTimeout = 0;         // seconds per build command; 0: none (a cold build may take hours)
  std::string format = "text";  // text | json | markdown
  std::string output;           // report file; "" for `out`
  std::string resultsDir;       // keep collected results here; "" for a temporary directory
  std::string repo = ".";       // the repository revisions are resolved in
};

// Collects both trees' results (by running, or from the results directories) and compares them.
// Progress and the commands' own output go to `log`. Throws InputError on bad input.
Comparison collectAndCompare(const PairOptions& options, std::ostream& log);

// The whole command: the report goes to `out` (or options.output); returns the exit status
// (0 ok, 1 new_failure, invalid or incident, 2 bad input, with the reason on `err`). SIGINT,
// SIGTERM or SIGHUP meanwhile stop the running command's process group, remove the worktrees and
// temporary results, and return 128+signal without a report (see interrupt.h).
int runPair(const PairOptions& options, std::ostream& out, std::ostream& err);

// The environment a test command gets (docs/pair.md): GRIDLOCK_RESULTS_DIR, GTEST_OUTPUT,
// GRIDLOCK_TREE, GRIDLOCK_RUN and, for reruns, GRIDLOCK_TEST_FILTER_FILE (`filterFile`, which
// the caller writes) and the filter variables when they fit (see filterVariables).
Environment testEnvironment(const std::string& resultsDir, const std::string& tree, int run,
                            const std::set<TestId>& only, const std::string& filterFile = "");

}  // namespace gridlock::pair
