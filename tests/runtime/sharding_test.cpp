// Shard widths: AutoTP's rules, the issue's reference vectors, per-model metadata, fused QKV
// layouts and the legacy process-wide globals (including the two-model clash they cause).
#include "gridlock/sharding.h"
#include "gridlock/parallel_state.h"
#include "gridlock/tp_shard.h"

#include <gtest/gtest.h>

#include <numeric>

namespace gridlock {
namespace {

ShardingMetadata kv(int heads) {
  ShardingMetadata m;
  m.num_kv_heads = heads;
  return m;
}

TEST(Sharding, IssueVectors) {
  EXPECT_EQ(shard_sizes(192, 2, "q_proj", kv(3)), (std::vector<int>{128, 64}));
  EXPECT_EQ(shard_sizes(192, 2, "q_proj", kv(2)), (std::vector<int>{96, 96}));
  EXPECT_EQ(shard_sizes(101, 2, "lm_head", {}), (std::vector<int>{51, 50}));
  EXPECT_EQ(shard_sizes(101, 2, "lm_head", kv(3)), (std::vector<int>{51, 50}));
}

TEST(Sharding, KvHeadSplitGivesWholeHeadsFirstRanksFirst) {
  EXPECT_EQ(shard_sizes(320, 4, "o_proj", kv(5)), (std::vector<int>{128, 64, 64, 64}));
  // More ranks than heads: zero-width ranks are legal.
  EXPECT_EQ(shard_sizes(128, 4, "k_proj", kv(2)), (std::vector<int>{64, 64, 0, 0}));
  // Width not divisible by kv heads: grain split instead.
  EXPECT_EQ(shard_sizes(100, 2, "q_proj", kv(3)), (std::vector<int>{50, 50}));
}

TEST(Sharding, ExcludedNamesUseTheGrainSplit) {
  for (const char* name : {"model.layers.0.mlp.fc1", "gate_proj", "layers.3.up_proj", "down_proj",
                           "w1", "experts.w2", "w3", "lm_head", "embed_out"}) {
    EXPECT_TRUE(uses_grain_split(name)) << name;
    EXPECT_EQ(shard_sizes(192, 2, name, kv(3)), (std::vector<int>{96, 96})) << name;
  }
  for (const char* name : {"", "q_proj", "self_attn.o_proj", "lm_head.weight", "embed_tokens"}) {
    EXPECT_FALSE(uses_grain_split(name)) << name;
    EXPECT_EQ(shard_sizes(192, 2, name, kv(3)), (std::vector<int>{128, 64})) << name;
  }
}

TEST(Sharding, GrainSplitKeepsGrainsWholeAndTheRestOnTheLastRank) {
  ShardingMetadata g64;
  g64.grain = 64;
  EXPECT_EQ(shard_sizes(101, 2, "lm_head", g64), (std::vector<int>{64, 37}));
  EXPECT_EQ(shard_sizes(320, 3, "mlp", g64), (std::vector<int>{128, 128, 64}));
  EXPECT_EQ(shard_sizes(330, 3, "mlp", g64), (std::vector<int>{128, 128, 74}));
  EXPECT_EQ(shard_sizes(130, 4, "mlp", g64), (std::vector<int>{64, 64, 0, 2}));
  // Below one grain: a plain near-even split.
  EXPECT_EQ(shard_sizes(10, 4, "mlp", g64), (std::vector<int>{3, 3, 2, 2}));
  EXPECT_EQ(shard_sizes(0, 3, "mlp", {}), (std::vector<int>{0, 0, 0}));
}

TEST(Sharding, WidthsAlwaysAddUpToTheTotal) {
  for (int total : {0, 1, 7, 63, 64, 65, 101, 192, 1000, 4097})
    for (int world : {1, 2, 3, 4, 5, 8})
      for (int heads : {0, 1, 2, 3, 8})
        for (int grain : {1, 16, 64})
          for (const char* name : {"q_proj", "mlp", "lm_head"}) {
            ShardingMetadata m = kv(heads);
            m.grain = grain;
            std::vector<int> s = shard_sizes(total, world, name, m);
            EXPECT_EQ(std::accumulate(s.begin(), s.end(), 0), total)
                << total << "/" << world << " kv " << heads << " grain " << grain << " " << name;
            for (int w : s) EXPECT_GE(w, 0);
          }
}

TEST(Sharding, OffsetsArePrefixSums) {
  EXPECT_EQ(shard_offsets({128, 64}), (std::vector<int>{0, 128}));
  EXPECT_EQ(shard_offsets({3, 0, 2}), (std::vector<int>{0, 3, 3}));
}

TEST(Sharding, RefusesBadArguments) {
  EXPECT_THROW(shard_size(10, 0, 0, "", {}), std::invalid_argument);
  EXPECT_THROW(shard_size(10, 2, 2, "", {}), std::invalid_argument);
  EXPECT_THROW(shard_size(-1, 2, 0, "", {}), std::invalid_argument);
  ShardingMetadata bad;
  bad.grain = 0;
  EXPECT_THROW(shard_size(10, 2, 0, "", bad), std::invalid_argument);
}

TEST(Sharding, TwoModelsInOneProcessKeepTheirOwnSplits) {
  // A vision encoder with 3 kv heads and an LLM with 2, both 192 wide, both on 2 ranks.
  ShardingMetadata vision = kv(3), llm = kv(2);
  EXPECT_EQ(shard_sizes(192, 2, "q_proj", vision), (std::vector<int>{128, 64}));
  EXPECT_EQ(shard_sizes(192, 2, "q_proj", llm), (std::vector<int>{96, 96}));
  EXPECT_EQ(shard_sizes(192, 2, "q_proj", vision), (std::vector<int>{128, 64}));
}

TEST(Sharding, LegacyGlobalsAreWhatTwoModelsClashOn) {
  // The legacy API reads one process-wide kv-head count: the second model's setting silently
  // changes the first model's split. This is the bug explicit metadata removes.
  tp_shard::num_kv_heads = 3;
  EXPECT_EQ(tp_shard::get_shard_size(192, 2, 0, "q_proj"), 128);
  tp_shard::num_kv_heads = 2;                                    // the second model loads
  EXPECT_EQ(tp_shard::get_shard_size(192, 2, 0, "q_proj"), 96);  // the first model's rank 0 now
  EXPECT_EQ(tp_shard::get_shard_size(101, 2, 1, "lm_head"), 50);
  EXPECT_EQ(tp_shard::get_shard_size(101, 2, 0, nullptr), 51);
  tp_shard::num_kv_heads = 0;
}

TEST(Sharding, LegacyShardSizeThrowsInStrictMode) {
  parallel_state::set_strict_mode(true);
  try {
    tp_shard::get_shard_size(192, 2, 0, "q_proj");
    ADD_FAILURE() << "no exception in strict mode";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("gridlock::tp_shard::get_shard_size"), std::string::npos)
        << e.what();
  }
  parallel_state::set_strict_mode(false);
  EXPECT_EQ(tp_shard::get_shard_size(101, 2, 0, "lm_head"), 51);
}

TEST(FusedQkv, ThirdsShardEachThirdAlike) {
  // 3 x 192, 3 kv heads on 2 ranks: each third splits [128, 64].
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::Thirds, 576, 2, 0, kv(3)),
            (std::vector<Segment>{{0, 128}, {192, 128}, {384, 128}}));
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::Thirds, 576, 2, 1, kv(3)),
            (std::vector<Segment>{{128, 64}, {320, 64}, {512, 64}}));
  EXPECT_THROW(fused_qkv_segments(FusedQkvLayout::Thirds, 577, 2, 0, kv(3)), std::invalid_argument);
  EXPECT_THROW(fused_qkv_segments(FusedQkvLayout::Thirds, 576, 2, 2, kv(3)), std::invalid_argument);
}

TEST(FusedQkv, GroupedQueryKeepsKvGroupsWithTheirQueries) {
  ShardingMetadata m;
  m.num_attention_heads = 8;
  m.num_kv_heads = 2;
  m.hidden_size = 128;  // head dim 16: q 128, k 32, v 32
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::QThenKv, 192, 2, 0, m),
            (std::vector<Segment>{{0, 64}, {128, 16}, {160, 16}}));
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::QThenKv, 192, 2, 1, m),
            (std::vector<Segment>{{64, 64}, {144, 16}, {176, 16}}));
  EXPECT_THROW(fused_qkv_segments(FusedQkvLayout::QThenKv, 190, 2, 0, m), std::invalid_argument);
}

TEST(FusedQkv, MultiQueryReplicatesTheKvBlock) {
  ShardingMetadata m;
  m.num_attention_heads = 6;
  m.num_kv_heads = 1;
  m.hidden_size = 96;  // head dim 16: q 96, k 16, v 16
  for (int r = 0; r < 4; ++r) {
    auto segs = fused_qkv_segments(FusedQkvLayout::QThenKv, 128, 4, r, m);
    ASSERT_EQ(segs.size(), 2u);
    EXPECT_EQ(segs[1], (Segment{96, 32})) << "rank " << r;
  }
  // 6 heads on 4 ranks: 2, 2, 1, 1 heads of 16.
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::QThenKv, 128, 4, 0, m)[0], (Segment{0, 32}));
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::QThenKv, 128, 4, 1, m)[0], (Segment{32, 32}));
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::QThenKv, 128, 4, 2, m)[0], (Segment{64, 16}));
  EXPECT_EQ(fused_qkv_segments(FusedQkvLayout::QThenKv, 128, 4, 3, m)[0], (Segment{80, 16}));
}

}  // namespace
}  // namespace gridlock
