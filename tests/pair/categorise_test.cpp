// The category table: every baseline/change/rerun combination, and who gets rerun.
#include "pair/categorise.h"

#include <gtest/gtest.h>

namespace gridlock::pair {
namespace {

using S = Status;
using C = Category;

struct Row {
  S baseline, change;
  bool passedOnRerun;
  C expected;
};

TEST(Categorise, EveryCombination) {
  const Row rows[] = {
      {S::Pass, S::Pass, false, C::PassedBoth},
      {S::Pass, S::Fail, false, C::NewFailure},
      {S::Pass, S::Fail, true, C::Flaky},
      {S::Fail, S::Pass, false, C::Fixed},
      {S::Fail, S::Fail, false, C::StillFailing},
      {S::Fail, S::Fail, true, C::StillFailing},  // never rerun, so a rerun cannot matter
      {S::Absent, S::Pass, false, C::Added},
      {S::Absent, S::Fail, false, C::NewFailure},  // the change brought it in failing
      {S::Absent, S::Fail, true, C::Flaky},
      {S::Absent, S::Skip, false, C::Added},
      {S::Pass, S::Absent, false, C::Removed},
      {S::Fail, S::Absent, false, C::Removed},
      {S::Skip, S::Absent, false, C::Removed},
      {S::Pass, S::Invalid, false, C::Invalid},
      {S::Pass, S::Invalid, true, C::Flaky},  // crashed once, passed on a rerun
      {S::Invalid, S::Pass, false, C::Invalid},
      {S::Invalid, S::Fail, false, C::Invalid},
      {S::Fail, S::Invalid, false, C::Invalid},  // a crash is never forgiven by a baseline failure
      {S::Skip, S::Skip, false, C::PassedBoth},
      {S::Pass, S::Skip, false, C::Removed},  // coverage lost
      {S::Fail, S::Skip, false, C::Removed},
      {S::Skip, S::Pass, false, C::Added},
      {S::Skip, S::Fail, false, C::NewFailure},
  };
  for (const Row& r : rows)
    EXPECT_EQ(name(categorise(r.baseline, r.change, r.passedOnRerun)), name(r.expected))
        << name(r.baseline) << " -> " << name(r.change)
        << (r.passedOnRerun ? " (rerun passed)" : "");
}

TEST(Categorise, OnlyUnforgivenChangeProblemsAreRerun) {
  EXPECT_TRUE(needsRerun(S::Pass, S::Fail));
  EXPECT_TRUE(needsRerun(S::Absent, S::Fail));
  EXPECT_TRUE(needsRerun(S::Skip, S::Fail));
  EXPECT_TRUE(needsRerun(S::Fail, S::Invalid));
  EXPECT_TRUE(needsRerun(S::Invalid, S::Fail));
  EXPECT_FALSE(needsRerun(S::Fail, S::Fail));  // still_failing already
  EXPECT_FALSE(needsRerun(S::Fail, S::Pass));  // the baseline is never rerun
  EXPECT_FALSE(needsRerun(S::Pass, S::Pass));
  EXPECT_FALSE(needsRerun(S::Pass, S::Absent));
}

}  // namespace
}  // namespace gridlock::pair
