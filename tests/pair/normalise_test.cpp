// Message normalisation: what varies between runs, ranks and trees goes; the meaning stays.
#include "pair/normalise.h"

#include <gtest/gtest.h>

namespace gridlock::pair {
namespace {

TEST(Normalise, UnwrapsExceptionsAndDropsTheLocationLine) {
  EXPECT_EQ(normaliseMessage("unknown file\nC++ exception with description \"Attention requires "
                             "an explicit pg_collection\" thrown in the test body."),
            "Attention requires an explicit pg_collection");
  EXPECT_EQ(normaliseMessage("/work/a/tests/attn_test.cpp:42\nExpected equality of these values:\n"
                             "  a\n    Which is: 3\n  4"),
            "Expected equality of these values: a Which is: <n> <n>");
  EXPECT_EQ(normaliseMessage("/work/a/tests/attn_test.cpp:42: Failure\nValue of: ok"),
            "Value of: ok");
  EXPECT_EQ(normaliseMessage("t.cpp:21\nFailed\nAttention requires an explicit pg_collection"),
            "Attention requires an explicit pg_collection");  // FAIL() << "..."
  EXPECT_EQ(normaliseMessage("Failed\nnot after a location"), "Failed not after a location");
}

TEST(Normalise, PathsKeepTheirFileName) {
  EXPECT_EQ(normaliseMessage("cannot open /tmp/gridlock-pair-Ab12/results/rank3/a.json"),
            "cannot open a.json");
  EXPECT_EQ(normaliseMessage("see core/attention.cpp:12 and ./x and ~/y/z"),
            "see attention.cpp:<n> and x and z");
  EXPECT_EQ(normaliseMessage("tp/dp mismatch"), "tp/dp mismatch");  // not a path
  EXPECT_EQ(normaliseMessage("failed in /work/tree-a/model.cpp."), "failed in model.cpp.");
}

TEST(Normalise, NumbersAndAddresses) {
  EXPECT_EQ(normaliseMessage("group at 0x7ffd1234abcd on rank 3 of 8"),
            "group at <addr> on rank <n> of <n>");
  EXPECT_EQ(normaliseMessage("norm 1.5e-05 != 2.25, -3"), "norm <n> != <n>, -<n>");
  // Digits inside words are part of the name.
  EXPECT_EQ(normaliseMessage("tp2 fp16 2nd x86_64"), "tp2 fp16 2nd x86_64");
}

TEST(Normalise, SameFailureOnDifferentRanksAndTreesIsEqual) {
  std::string a = "/work/base/t.cpp:40\nrank 0: shard 7 at 0xaaaa";
  std::string b = "/work/change/t.cpp:41\nrank 1: shard 9 at 0xbbbb";
  EXPECT_EQ(normaliseMessage(a), normaliseMessage(b));
  EXPECT_NE(normaliseMessage("rank 0: shard 7"), normaliseMessage("rank 0: group 7"));
}

TEST(OneLine, CollapsesAndCuts) {
  EXPECT_EQ(oneLine("  a\n\n b\tc  "), "a b c");
  EXPECT_EQ(oneLine("abcdefghij", 8), "abcde...");
  EXPECT_EQ(oneLine("abcdefgh", 8), "abcdefgh");
}

}  // namespace
}  // namespace gridlock::pair
