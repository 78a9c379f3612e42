// "Did you mean": the edit distance, and which names are close enough to suggest.
#include "support/nearest.h"

#include <gtest/gtest.h>

namespace gridlock::support {
namespace {

const std::vector<std::string> kCommands = {"scan",  "gate", "callers", "rewrite",
                                            "merge", "grid", "shard",   "pair"};

TEST(Nearest, EditDistanceCountsASwapOfNeighboursAsOneEdit) {
  EXPECT_EQ(editDistance("scan", "scan"), 0u);
  EXPECT_EQ(editDistance("scna", "scan"), 1u);   // swap
  EXPECT_EQ(editDistance("bild", "build"), 1u);  // insertion
  EXPECT_EQ(editDistance("gatee", "gate"), 1u);  // deletion
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);  // k->s, e->i, +g
}

TEST(Nearest, SuggestsOnlyWhatIsCloseEnoughToBeASlip) {
  EXPECT_EQ(nearest("scna", kCommands), "scan");
  EXPECT_EQ(nearest("gat", kCommands), "gate");
  EXPECT_EQ(nearest("gridlock-legcy", {"gridlock-legacy", "mpi"}), "gridlock-legacy");
  // A four-letter word allows one edit: a swap, not two substitutions.
  EXPECT_EQ(nearest("sacn", {"scan"}), "scan");
  EXPECT_EQ(nearest("sxxn", {"scan"}), "");
  EXPECT_EQ(nearest("frob", kCommands), "");
  EXPECT_EQ(nearest("x", {"jobs", "root"}), "");
  // A tie: the first candidate.
  EXPECT_EQ(nearest("scab", {"scar", "scan"}), "scar");
  EXPECT_EQ(nearest("anything", {}), "");
}

TEST(Nearest, DidYouMeanIsASentenceTail) {
  EXPECT_EQ(didYouMean("scna", kCommands), "; did you mean 'scan'?");
  EXPECT_EQ(didYouMean("bild", {"build", "rules"}, '"'), "; did you mean \"build\"?");
  EXPECT_EQ(didYouMean("frob", kCommands), "");
}

}  // namespace
}  // namespace gridlock::support
