// Rank layouts: Megatron-core's generator semantics, the issue's reference vectors, options
// that must be refused.
#include "gridlock/grid_layout.h"
#include "gridlock/rank_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace gridlock {
namespace {

GridOptions opts(int world, int tp, int pp, int cp = 1, int ep = 1, int etp = 1) {
  GridOptions o;
  o.world = world;
  o.tp = tp;
  o.pp = pp;
  o.cp = cp;
  o.ep = ep;
  o.etp = etp;
  return o;
}

TEST(GridLayout, World8Tp2Pp2MatchesTheIssueVectors) {
  GridLayout l(opts(8, 2, 2));
  EXPECT_EQ(l.dp(), 2);
  EXPECT_EQ(l.groups("tp"), (RankGroups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(l.groups("dp"), (RankGroups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  EXPECT_EQ(l.groups("pp"), (RankGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(l.groups("mp"), (RankGroups{{0, 1, 4, 5}, {2, 3, 6, 7}}));
  EXPECT_EQ(l.groups("cp"), (RankGroups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}));
  EXPECT_EQ(l.groups("dp_cp"), l.groups("dp"));
  EXPECT_EQ(l.groups("tp_cp"), l.groups("tp"));
  EXPECT_EQ(l.groups("tp_dp_cp"), (RankGroups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(l.groups("embd"), (RankGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(l.groups("pos_embd"), (RankGroups{{0}, {1}, {2}, {3}}));
  // Expert grid with etp 1, ep 1: expert dp spans everything but pp.
  EXPECT_EQ(l.expt_dp(), 4);
  EXPECT_EQ(l.groups("ep"), (RankGroups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}));
  EXPECT_EQ(l.groups("expt_tp"), (RankGroups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}));
  EXPECT_EQ(l.groups("expt_dp"), (RankGroups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
}

TEST(GridLayout, ContextParallelVariesBetweenTpAndDp) {
  GridLayout l(opts(16, 2, 2, 2));
  EXPECT_EQ(l.dp(), 2);
  EXPECT_EQ(l.groups("tp")[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(l.groups("cp"),
            (RankGroups{{0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}}));
  EXPECT_EQ(l.groups("dp"),
            (RankGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}}));
  // dp-cp: cp varies fastest inside the group (it comes first in the order).
  EXPECT_EQ(l.groups("dp_cp"),
            (RankGroups{{0, 2, 4, 6}, {1, 3, 5, 7}, {8, 10, 12, 14}, {9, 11, 13, 15}}));
  EXPECT_EQ(l.groups("tp_cp"),
            (RankGroups{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}}));
  EXPECT_EQ(l.groups("pp"),
            (RankGroups{{0, 8}, {1, 9}, {2, 10}, {3, 11}, {4, 12}, {5, 13}, {6, 14}, {7, 15}}));
  EXPECT_EQ(l.groups("mp"),
            (RankGroups{{0, 1, 8, 9}, {2, 3, 10, 11}, {4, 5, 12, 13}, {6, 7, 14, 15}}));
}

TEST(GridLayout, ExpertGridHasItsOwnSizesAndSharesPp) {
  GridLayout l(opts(8, 2, 2, 1, /*ep=*/2, /*etp=*/1));
  EXPECT_EQ(l.expt_dp(), 2);
  EXPECT_EQ(l.groups("expt_tp"), (RankGroups{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}));
  EXPECT_EQ(l.groups("ep"), (RankGroups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(l.groups("expt_dp"), (RankGroups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  EXPECT_EQ(l.groups("tp_ep"), (RankGroups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(l.groups("tp_ep_pp"), (RankGroups{{0, 1, 4, 5}, {2, 3, 6, 7}}));

  GridLayout wide(opts(16, 2, 2, 1, /*ep=*/2, /*etp=*/2));
  EXPECT_EQ(wide.groups("expt_tp")[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(wide.groups("ep")[0], (std::vector<int>{0, 2}));
  EXPECT_EQ(wide.groups("expt_dp")[0], (std::vector<int>{0, 4}));
  EXPECT_EQ(wide.groups("pp")[0], (std::vector<int>{0, 8}));
}

TEST(GridLayout, EveryFamilyPartitionsTheGrid) {
  for (GridOptions o : {opts(8, 2, 2), opts(16, 2, 2, 2), opts(24, 2, 3, 1, 2, 2), opts(1, 1, 1),
                        opts(12, 3, 1, 2)}) {
    GridLayout l(o);
    for (const auto& name : grid_group_names()) {
      if (name == "embd" || name == "pos_embd") continue;
      std::multiset<int> seen;
      for (const auto& g : l.groups(name)) seen.insert(g.begin(), g.end());
      ASSERT_EQ(seen.size(), static_cast<std::size_t>(o.world)) << name;
      for (int r = 0; r < o.world; ++r) EXPECT_EQ(seen.count(r), 1u) << name << " rank " << r;
    }
  }
}

TEST(GridLayout, ExpertTensorParallelDefaultsToTp) {
  GridOptions o;
  o.world = 8;
  o.tp = 2;
  o.pp = 2;
  GridLayout l(o);
  EXPECT_EQ(expert_tensor_parallel_size(o), 2);
  EXPECT_EQ(l.expt_dp(), 2);
  EXPECT_EQ(l.groups("expt_tp"), l.groups("tp"));
  EXPECT_EQ(l.groups("expt_dp"), l.groups("dp"));
}

TEST(GridLayout, RankOffsetShiftsEveryGroup) {
  GridOptions o = opts(6, 2, 1);
  o.rank_offset = 2;
  GridLayout l(o);
  EXPECT_EQ(l.groups("tp"), (RankGroups{{2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(l.groups("dp"), (RankGroups{{2, 4, 6}, {3, 5, 7}}));
  EXPECT_EQ(l.groups("embd"), (RankGroups{{2}, {3}, {4}, {5}, {6}, {7}}));
  EXPECT_TRUE(l.contains(2));
  EXPECT_FALSE(l.contains(1));
  EXPECT_FALSE(l.contains(8));
  EXPECT_EQ(l.group_of("dp", 5), (std::vector<int>{3, 5, 7}));
  EXPECT_TRUE(l.group_of("dp", 0).empty());
}

TEST(GridLayout, OrderChangesWhichDimensionIsFastest) {
  GridOptions o = opts(8, 2, 2);
  o.order = "tp-cp-ep-pp-dp";
  o.etp = 0;  // = tp, so the expert grid's pp groups match the dense grid's
  GridLayout l(o);
  EXPECT_EQ(l.groups("tp"), (RankGroups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(l.groups("pp"), (RankGroups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  EXPECT_EQ(l.groups("dp"), (RankGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
}

TEST(GridLayout, RefusesBadOptionsWithTheRuleBroken) {
  auto message = [](GridOptions o) {
    try {
      GridLayout l(o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(opts(6, 4, 1)).find("not divisible by tp*cp*pp"), std::string::npos);
  EXPECT_NE(message(opts(8, 2, 2, 1, 4, 2)).find("etp*ep*pp"), std::string::npos);
  EXPECT_NE(message(opts(8, 0, 1)).find("tp must be >= 1"), std::string::npos);
  GridOptions bad_order = opts(8, 2, 2);
  bad_order.order = "tp-dp";
  EXPECT_NE(message(bad_order).find("leaves out pp"), std::string::npos);
  bad_order.order = "tp-xx-dp-pp";
  EXPECT_NE(message(bad_order).find("unknown dimension 'xx'"), std::string::npos);
  bad_order.order = "tp-tp-dp-pp";
  EXPECT_NE(message(bad_order).find("twice"), std::string::npos);
  GridOptions neg = opts(8, 2, 2);
  neg.rank_offset = -1;
  EXPECT_NE(message(neg).find("rank offset"), std::string::npos);
  // pp not last and expert sizes differing: the two grids would disagree on pp groups.
  GridOptions split_pp = opts(8, 2, 2, 1, 1, 1);
  split_pp.order = "tp-pp-dp";
  EXPECT_NE(message(split_pp).find("pp groups"), std::string::npos);
}

TEST(RankGenerator, MaskedGroupsFollowMegatron) {
  // sizes tp=2, dp=3 (order tp-dp), mask dp: groups stride 2.
  EXPECT_EQ(masked_orthogonal_rank_groups(6, {2, 3}, {false, true}),
            (RankGroups{{0, 2, 4}, {1, 3, 5}}));
  EXPECT_EQ(masked_orthogonal_rank_groups(6, {2, 3}, {true, false}),
            (RankGroups{{0, 1}, {2, 3}, {4, 5}}));
  RankGenerator g(2, 1, 2, 2, 1, "tp-cp-ep-dp-pp", 4);
  EXPECT_EQ(g.world_size(), 8);
  EXPECT_EQ(g.get_ranks("pp-tp"), (RankGroups{{4, 5, 8, 9}, {6, 7, 10, 11}}));
  EXPECT_THROW(g.get_ranks("tp-zz"), std::invalid_argument);
}

}  // namespace
}  // namespace gridlock
