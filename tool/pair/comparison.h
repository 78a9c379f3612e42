// Pairs the baseline's and the change's results test by test: the model every report renders.
#pragma once

#include "pair/merge.h"
#include "pair/results.h"
#include "pair/status.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::pair {

struct TestRow {
  std::string id;           // for display: "Suite.Name" (two tests may share it, see TestId)
  std::string suite, name;  // what tells the test apart
  Status baseline = Status::Absent;
  Status change = Status::Absent;  // the first run's; reruns show in rerun/passedOnRerun
  Category category = Category::PassedBoth;
  std::string message;    // the change's failure, else the baseline's; the reason when invalid
  std::string signature;  // normalised message (see normalise.h)
  std::vector<int> failedRanks;  // of the side the message comes from
  int ranks = 0;
  int runs = 0;  // result sources the ranks span (several mpirun sizes, several binaries)
  bool identicalOnAllRanks = false;
  int reruns = 0;         // reruns of this test in the change
  int passedOnRerun = 0;  // 1-based rerun that passed, 0 if none
};

struct Signature {
  std::string message;
  int count = 0;
  std::map<Category, int> categories;
  bool identicalOnAllRanks = false;  // every test of the group failed alike on all its ranks
  std::vector<std::string> tests;    // display ids
};

// A run whose test command was killed by a signal or timed out (see command_end.h).
struct Incident {
  std::string tree;  // "baseline" or "change"
  int run = 0;       // 0: the first run; k: rerun k
  CommandEnd end;
  bool shared = false;  // the other tree's first run ended the same way (see sameWay)
  std::vector<std::string> unreported;  // display ids of the tests without a result in that run
};

struct Comparison {
  std::vector<TestRow> tests;         // sorted by suite, then name
  std::map<Category, int> summary;    // all eight categories, zeros included
  int skippedBoth = 0;                // of passed_both: skipped in both trees
  std::vector<Signature> signatures;  // of the change's problems, most frequent first
  int ranks = 1;                      // most ranks any test ran on
  std::vector<Incident> incidents;    // baseline's first run, change's first run, its reruns
  std::vector<std::string> notes;     // what the runner saw (non-zero exits, git revisions)
};

// Exit status of the command for this comparison: 1 on any new_failure, invalid or incident that
// is not shared, else 0.
int exitCode(const Comparison& c);

class Pairing {
 public:
  Pairing(const RunResults& baseline, const RunResults& change, int forcedRanks = 0);

  // Tests of the change that a rerun could still forgive (see needsRerun), not yet passed.
  std::set<TestId> pendingReruns() const;
  // Merges one rerun of the pending tests; a test that passes in it becomes flaky.
  void addRerun(const RunResults& rerun);

  Comparison result() const;

 private:
  struct RunRecord {
    std::string tree;
    int run = 0;
    CommandEnd end;
    std::vector<std::string> unreported;  // filled only for an incident
  };
  void record(const std::string& tree, int run, const CommandEnd& end,
              const std::map<TestId, Merged>& merged);

  TestIndex index_;
  std::map<TestId, Merged> baseline_, change_;
  std::map<TestId, int> reruns_, passedOnRerun_;
  std::vector<RunRecord> runs_;  // in run order, baseline first
};

// A whole comparison from results already collected; `change.reruns` are applied in order.
Comparison compare(const TreeResults& baseline, const TreeResults& change, int forcedRanks = 0);

// Groups the change's problems (new_failure, still_failing, flaky, invalid) by signature.
std::vector<Signature> groupSignatures(const std::vector<TestRow>& rows);

}  // namespace gridlock::pair
