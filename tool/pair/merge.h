// Merges the per-rank observations of one run into one status per test.
#pragma once

#include "pair/results.h"
#include "pair/status.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::pair {

// What both trees' first runs say exists: which ranks each test binary (source) reports, and
// which sources report each test. Reruns and the other tree are checked against it, so a rank or
// a binary that wrote nothing is noticed instead of shrinking the test list.
struct TestIndex {
  std::map<std::string, std::set<int>> ranksOf;       // source -> expected ranks
  std::map<TestId, std::set<std::string>> sourcesOf;  // test -> sources
};

// Expected ranks of a source are 0..(highest rank seen for it in any run); `forcedRanks` > 0
// says the world size instead (a crash of the highest rank in every run is then seen too).
TestIndex indexRuns(const std::vector<const RunResults*>& firstRuns, int forcedRanks = 0);

struct Merged {
  Status status = Status::Absent;
  std::string message;           // lowest failing rank's message, or why the test is invalid
  std::vector<int> failedRanks;  // ranks where it failed (or, when Invalid, had no result)
  int ranks = 0;                 // ranks expected to report the test
  int runs = 0;                  // result sources (binaries, or one per mpirun) those ranks span
  bool identicalOnAllRanks = false;  // failed on every one of >1 ranks, one normalised message
  // Invalid because an expected rank has no result for it (no file, a truncated one, or a file
  // without the test), as opposed to a result that reports a crash.
  bool unreported = false;
};

// How a source that left no file at all in this run counts: in the change it crashed (its
// tests are invalid); in the baseline it is a binary the change added.
enum class MissingSource { Crash, Absent };

// One Merged per test of `index` (or only those in `only`, for reruns). Rules: a test with any
// crash, or without a result on an expected rank, is Invalid; else it fails when it fails on any
// rank; it is Skip when skipped on every rank; else Pass.
std::map<TestId, Merged> mergeRun(const RunResults& run, const TestIndex& index,
                                  MissingSource missing, const std::set<TestId>* only = nullptr);

}  // namespace gridlock::pair
