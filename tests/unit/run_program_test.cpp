// support::RunningProgram fed as it runs (python3 parsing sources as the scan meets them): a
// program that prints while it reads never stalls the feed, one that reads nothing times the
// feed out, one that ended closes it.
#include "support/run_program.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace gridlock::support {
namespace {

using Fed = RunningProgram::Fed;

ProgramRun shell(const std::string& script) {
  ProgramRun run;
  run.argv = {"/bin/sh", "-c", script};
  return run;
}

const std::string kBig(3'000'000, 'x');  // far more than a socket's buffer

// It writes a megabyte on stderr before it reads: unless the feed reads it meanwhile, both
// sides wait on each other.
TEST(RunningProgram, AProgramThatPrintsBeforeItReadsDoesNotStallTheFeed) {
  RunningProgram p(shell("head -c 1000000 /dev/zero >&2; wc -c"), /*fed=*/true);
  ASSERT_TRUE(p.started());
  EXPECT_EQ(p.feed(kBig, 10), Fed::Yes);
  ProgramResult r = p.finish(10);
  EXPECT_EQ(r.exitStatus, 0);
  EXPECT_EQ(r.out, "3000000\n");
  EXPECT_EQ(r.err.size(), 1'000'000u);
}

TEST(RunningProgram, AProgramThatReadsNothingTimesTheFeedOut) {
  RunningProgram p(shell("exec sleep 30"), /*fed=*/true);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(p.feed(kBig, 1), Fed::TimedOut);
  ProgramResult r = p.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.exitStatus, -1);
}

TEST(RunningProgram, AProgramThatEndedClosesTheFeed) {
  RunningProgram p(shell("exit 4"), /*fed=*/true);
  EXPECT_EQ(p.feed(kBig, 10), Fed::Closed);
  EXPECT_EQ(p.finish(10).exitStatus, 4);
}

TEST(RunningProgram, AProgramThatCannotRunSaysWhy) {
  RunningProgram p(ProgramRun{{"/nonexistent/gridlock-test"}, "", "", 0}, /*fed=*/true);
  EXPECT_FALSE(p.started());
  EXPECT_EQ(p.feed("x", 1), Fed::Closed);
  ProgramResult r = p.finish(1);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.error, "/nonexistent/gridlock-test: No such file or directory");
}

}  // namespace
}  // namespace gridlock::support
