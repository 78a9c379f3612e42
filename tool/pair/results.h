// The data read from result files, before any merging: one observation per test per file.
#pragma once

#include <compare>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::pair {

// Bad input (a missing directory, a malformed result file): the command exits 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A test: suite and name kept apart, so suite "A.B" test "C" and suite "A" test "B.C" stay two
// tests although both display as "A.B.C". Ordered by suite, then name.
struct TestId {
  std::string suite, name;  // suite may be empty (a JUnit test without a class)
  auto operator<=>(const TestId&) const = default;
  // "Suite.Name", or just the name without a suite: for reports and filters, not as a key.
  std::string display() const { return suite.empty() ? name : suite + "." + name; }
};

// What one file says about one test on one rank.
enum class Outcome { Pass, Fail, Skip, Crash };

struct Observation {
  TestId id;
  Outcome outcome = Outcome::Pass;
  std::string message;  // first failure message, crash reason or skip reason
};

// One result file. `source` names the test binary independent of rank (the relative path with
// the rank marker removed), so the same binary's files on different ranks line up.
struct ResultFile {
  std::string path;
  std::string source;
  int rank = 0;
  // The file ends before its document does: the writer died while writing. Its tests have no
  // result on this rank, which makes them invalid rather than silently absent.
  bool truncated = false;
  std::string problem;  // why it is truncated, for messages
  std::vector<Observation> tests;
};

// How the test command of a run ended, when pair ran it (kept beside the results as runK.end).
struct CommandEnd {
  bool known = false;  // false: the results were collected some other way
  int exitStatus = 0;  // when it exited
  int signal = 0;      // when a signal killed it
  bool timedOut = false;
  int timeoutSeconds = 0;
};

// Everything one run of the test command left in its results directory.
struct RunResults {
  std::string dir;
  std::vector<ResultFile> files;
  CommandEnd end;
};

// A tree's first run plus the reruns of the tests that failed in it (reruns only exist for the
// change; the baseline is never rerun).
struct TreeResults {
  RunResults first;
  std::vector<RunResults> reruns;
};

}  // namespace gridlock::pair
