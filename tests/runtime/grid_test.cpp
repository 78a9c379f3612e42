// Grid: communicators matching the layout on every rank; two grids side by side in one process.
#include "gridlock/grid.h"
#include "gridlock/collectives.h"
#include "gridlock/process_group.h"
#include "test_world.h"

#include <gtest/gtest.h>

namespace gridlock {
namespace {

// The group of `family` this rank holds must be exactly the layout's group for it, and its
// members must agree (an all-gather of global ranks returns the same list).
void expect_groups_match_layout(const Grid& grid, int parent_rank) {
  for (const auto& family : ProcessGroupCollection::field_names()) {
    std::vector<int> expect = grid.layout().group_of(family, parent_rank);
    auto g = grid.group(family);
    if (expect.empty()) {
      EXPECT_EQ(g, nullptr) << family;
      continue;
    }
    ASSERT_NE(g, nullptr) << family;
    EXPECT_EQ(g->ranks(), expect) << family;
    std::vector<int> gathered(g->size());
    int mine = g->global_rank();
    all_gather<int>(std::span<const int>(&mine, 1), gathered, *g);
    EXPECT_EQ(gathered, expect) << family;
  }
}

std::vector<GridOptions> grids_for(int world) {
  std::vector<GridOptions> out;
  auto add = [&](int tp, int pp, int cp, int ep, int etp) {
    GridOptions o;
    o.world = world;
    o.tp = tp;
    o.pp = pp;
    o.cp = cp;
    o.ep = ep;
    o.etp = etp;
    if (world % (tp * pp * cp) == 0 && world % ((etp ? etp : tp) * ep * pp) == 0) out.push_back(o);
  };
  add(1, 1, 1, 1, 0);
  add(2, 1, 1, 1, 0);
  add(2, 2, 1, 1, 0);
  add(1, 2, 2, 1, 0);
  add(2, 1, 2, 2, 1);
  add(2, 2, 1, 2, 1);
  return out;
}

TEST(Grid, GroupsMatchTheLayoutOnEveryRank) {
  auto w = test::world();
  for (const GridOptions& o : grids_for(w->size())) {
    SCOPED_TRACE("tp " + std::to_string(o.tp) + " pp " + std::to_string(o.pp) + " cp " +
                 std::to_string(o.cp) + " ep " + std::to_string(o.ep));
    Grid grid(w, o);
    ASSERT_TRUE(grid.has_this_rank());
    EXPECT_EQ(grid.root()->size(), w->size());
    expect_groups_match_layout(grid, w->rank());
    auto pp = grid.layout().group_of("pp", w->rank());
    EXPECT_EQ(grid.is_pipeline_first_stage(), pp.front() == w->rank());
    EXPECT_EQ(grid.is_pipeline_last_stage(), pp.back() == w->rank());
  }
}

TEST(Grid, IssueLayoutOnEightRanks) {
  auto w = test::world();
  if (w->size() != 8) GTEST_SKIP() << "needs 8 ranks (runtime_process_groups_np8)";
  GridOptions o;
  o.world = 8;
  o.tp = 2;
  o.pp = 2;
  Grid grid(w, o);
  int r = w->rank();
  EXPECT_EQ(grid.groups().tp->ranks(), (std::vector<int>{r / 2 * 2, r / 2 * 2 + 1}));
  EXPECT_EQ(grid.groups().pp->ranks(), (std::vector<int>{r % 4, r % 4 + 4}));
  std::vector<std::vector<int>> dp = {{0, 2}, {1, 3}, {0, 2}, {1, 3},
                                      {4, 6}, {5, 7}, {4, 6}, {5, 7}};
  EXPECT_EQ(grid.groups().dp->ranks(), dp[r]);
  EXPECT_EQ(grid.groups().mp->ranks(),
            r % 4 < 2 ? (std::vector<int>{0, 1, 4, 5}) : (std::vector<int>{2, 3, 6, 7}));
  ASSERT_NE(grid.groups().embd, nullptr);  // every rank is a first or last stage here
  EXPECT_EQ(grid.groups().embd->ranks(), (std::vector<int>{r % 4, r % 4 + 4}));
}

TEST(Grid, RefusesAGridLargerThanItsParent) {
  auto w = test::world();
  GridOptions o;
  o.world = w->size();
  o.rank_offset = 1;
  EXPECT_THROW({ Grid g(w, o); }, std::invalid_argument);
}

// A vision encoder on the first ranks beside an LLM on the rest (2 + 6 on 8 ranks), each its
// own grid from the same parent: their groups never mix, and collectives stay inside each.
TEST(Grid, TwoGridsInOneProcess) {
  auto w = test::world();
  if (w->size() < 2) GTEST_SKIP() << "needs 2 or more ranks";
  int vision_ranks = std::max(1, w->size() / 4);
  int llm_ranks = w->size() - vision_ranks;
  GridOptions vision_o, llm_o;
  vision_o.world = vision_ranks;
  vision_o.tp = vision_ranks % 2 == 0 ? 2 : 1;
  llm_o.world = llm_ranks;
  llm_o.tp = llm_ranks % 2 == 0 ? 2 : 1;
  llm_o.rank_offset = vision_ranks;
  Grid vision(w, vision_o);
  Grid llm(w, llm_o);

  bool in_vision = w->rank() < vision_ranks;
  EXPECT_EQ(vision.has_this_rank(), in_vision);
  EXPECT_EQ(llm.has_this_rank(), !in_vision);
  const Grid& mine = in_vision ? vision : llm;
  const Grid& other = in_vision ? llm : vision;
  EXPECT_EQ(other.groups().tp, nullptr);
  EXPECT_EQ(other.root(), nullptr);
  expect_groups_match_layout(mine, w->rank());

  // Sum of world ranks over each grid's root and tp group: only that grid's ranks count.
  std::vector<std::int64_t> sum{w->rank()};
  all_reduce<std::int64_t>(sum, ReduceOp::Sum, *mine.root());
  std::int64_t expect = 0;
  for (int r : mine.root()->ranks()) expect += r;
  EXPECT_EQ(sum[0], expect);
  if (w->size() == 8) {
    EXPECT_EQ(vision.has_this_rank() ? vision.root()->ranks() : llm.root()->ranks(),
              in_vision ? (std::vector<int>{0, 1}) : (std::vector<int>{2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(mine.groups().tp->ranks(),
              (std::vector<int>{w->rank() / 2 * 2, w->rank() / 2 * 2 + 1}));
    if (!in_vision)
      EXPECT_EQ(llm.groups().dp->ranks(),
                w->rank() % 2 == 0 ? (std::vector<int>{2, 4, 6}) : (std::vector<int>{3, 5, 7}));
  }
}

}  // namespace
}  // namespace gridlock
