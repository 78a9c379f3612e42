// ProcessGroup: ranks, global ranks, sub-groups from an explicit parent, errors as exceptions.
#include "gridlock/process_group.h"
#include "gridlock/collectives.h"
#include "gridlock/error.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <numeric>

namespace gridlock {
namespace {

TEST(ProcessGroup, WorldKnowsItsRanks) {
  auto w = test::world();
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(w->rank(), rank);
  EXPECT_EQ(w->size(), size);
  EXPECT_EQ(w->global_rank(), rank);
  std::vector<int> all(size);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(w->ranks(), all);
  EXPECT_EQ(w->parent(), nullptr);
  EXPECT_EQ(w->name(), "world");
  // The group talks on its own duplicate, never on the caller's communicator.
  int cmp = MPI_UNEQUAL;
  MPI_Comm_compare(w->comm(), MPI_COMM_WORLD, &cmp);
  EXPECT_EQ(cmp, MPI_CONGRUENT);
}

TEST(ProcessGroup, SubgroupOfMembersOnly) {
  auto w = test::world();
  // Odd ranks, listed in reverse: the new group's rank order is the listed order.
  std::vector<int> odd;
  for (int r = w->size() - 1; r >= 0; --r)
    if (r % 2 == 1) odd.push_back(r);
  auto g = w->subgroup(odd, "odd");
  if (w->rank() % 2 == 0) {
    EXPECT_EQ(g, nullptr);
    return;
  }
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->size(), static_cast<int>(odd.size()));
  EXPECT_EQ(g->ranks(), odd);
  EXPECT_EQ(g->global_rank(), w->rank());
  EXPECT_EQ(g->global_rank(g->rank()), w->rank());
  EXPECT_EQ(g->group_rank(w->rank()), g->rank());
  EXPECT_EQ(g->group_rank(0), -1);
  EXPECT_EQ(g->parent().get(), w.get());
  // A sub-group of the sub-group still reports world ranks.
  std::vector<int> first{0};
  auto first_odd = g->subgroup(first, "odd/first");
  if (g->rank() == 0) {
    ASSERT_NE(first_odd, nullptr);
    EXPECT_EQ(first_odd->ranks(), std::vector<int>{odd[0]});
  } else {
    EXPECT_EQ(first_odd, nullptr);
  }
}

TEST(ProcessGroup, SplitFollowsColorAndKey) {
  auto w = test::world();
  auto halves = w->split(w->rank() % 2, -w->rank(), "parity");
  ASSERT_NE(halves, nullptr);
  // Keys are negated ranks: the highest world rank of each parity becomes rank 0.
  std::vector<int> expect;
  for (int r = w->size() - 1; r >= 0; --r)
    if (r % 2 == w->rank() % 2) expect.push_back(r);
  EXPECT_EQ(halves->ranks(), expect);
  auto none = w->split(MPI_UNDEFINED, 0, "none");
  EXPECT_EQ(none, nullptr);
}

TEST(ProcessGroup, RefusesRanksOutsideIt) {
  auto w = test::world();
  std::vector<int> bad{w->size()};
  EXPECT_THROW(w->subgroup(bad, "bad"), std::invalid_argument);
  EXPECT_THROW(w->global_rank(w->size()), std::out_of_range);
}

TEST(ProcessGroup, MpiErrorsBecomeExceptionsNamingCallGroupAndCode) {
  auto w = test::world();
  std::vector<float> buf(4, 1.f);
  try {
    send<float>(buf, w->size() + 3, *w);  // no such rank
    FAIL() << "no exception";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.library(), "MPI");
    EXPECT_EQ(e.call(), "MPI_Send");
    EXPECT_EQ(e.group(), "world");
    EXPECT_EQ(e.code(), MPI_ERR_RANK);
    std::string what = e.what();
    EXPECT_NE(what.find("MPI_Send"), std::string::npos) << what;
    EXPECT_NE(what.find("'world'"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(MPI_ERR_RANK)), std::string::npos) << what;
  }
  // The group still works after the failure.
  all_reduce<float>(buf, ReduceOp::Sum, *w);
  EXPECT_EQ(buf[0], static_cast<float>(w->size()));
}

}  // namespace
}  // namespace gridlock
