// Parallel layers against one unsharded matmul: every rank builds the full weights from a
// fixed formula, loads its slice, and must reproduce the full result.
#include "gridlock/layers.h"
#include "gridlock/grid.h"
#include "gridlock/process_group.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gridlock {
namespace {

std::vector<float> pattern(int n, int seed) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(((i * 37 + seed * 11) % 23) - 11) / 8.f;
  return v;
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-4f * (1.f + std::fabs(want[i]))) << "element " << i;
}

// The tp groups to test on: the whole world, and a tp-2 grid's tp group where it fits.
std::vector<std::shared_ptr<ProcessGroup>> tp_groups() {
  auto w = test::world();
  std::vector<std::shared_ptr<ProcessGroup>> out{w};
  if (w->size() % 2 == 0 && w->size() > 2) {
    static Grid grid(w, [&] {
      GridOptions o;
      o.world = w->size();
      o.tp = 2;
      return o;
    }());
    out.push_back(grid.groups().tp);
  }
  return out;
}

TEST(Layers, UnshardedLinearReference) {
  // [1 2; 3 4] x W^T with W = [1 0; 0 1; 1 1], bias [0.5, 0, -1]
  std::vector<float> x{1, 2, 3, 4}, wt{1, 0, 0, 1, 1, 1}, b{0.5f, 0, -1};
  EXPECT_EQ(linear(x, 2, 2, wt, 3, b), (std::vector<float>{1.5f, 2, 2, 3.5f, 4, 6}));
}

TEST(Layers, ColumnParallelMatchesUnsharded) {
  ShardingMetadata kv3;
  kv3.num_kv_heads = 3;
  for (auto& tp : tp_groups()) {
    for (bool gather : {false, true}) {
      const int batch = 4, in = 24, out = 192;  // 3 kv heads: uneven widths on 2 ranks
      auto x = pattern(batch * in, 1), weight = pattern(out * in, 2), bias = pattern(out, 3);
      ColumnParallelLinear layer(in, out, "q_proj", kv3, tp, gather);
      layer.load_full(weight, bias);
      EXPECT_EQ(layer.widths(), shard_sizes(out, tp->size(), "q_proj", kv3));
      auto full = linear(x, batch, in, weight, out, bias);
      auto y = layer.forward(x, batch);
      if (gather) {
        expect_near(y, full);
      } else {
        std::vector<float> mine;
        for (int b = 0; b < batch; ++b)
          for (int o = 0; o < layer.local_out(); ++o)
            mine.push_back(full[b * out + layer.local_offset() + o]);
        expect_near(y, mine);
      }
    }
  }
}

TEST(Layers, ColumnThenRowIsTheUnshardedMlp) {
  for (auto& tp : tp_groups()) {
    const int batch = 3, hidden = 16, ffn = 40;
    auto x = pattern(batch * hidden, 4), w1 = pattern(ffn * hidden, 5),
         w2 = pattern(hidden * ffn, 6);
    auto b2 = pattern(hidden, 7);
    ColumnParallelLinear up(hidden, ffn, "mlp.up_proj", {}, tp);
    RowParallelLinear down(ffn, hidden, "mlp.down_proj", {}, tp);
    up.load_full(w1, {});
    down.load_full(w2, b2);
    auto y = down.forward(up.forward(x, batch), batch);
    auto full = linear(linear(x, batch, hidden, w1, ffn, {}), batch, ffn, w2, hidden, b2);
    expect_near(y, full);
  }
}

TEST(Layers, RowParallelTakesItsSliceOfAFullInput) {
  for (auto& tp : tp_groups()) {
    const int batch = 2, in = 30, out = 7;
    auto x = pattern(batch * in, 8), weight = pattern(out * in, 9), bias = pattern(out, 10);
    RowParallelLinear layer(in, out, "o_proj", {}, tp, /*input_is_parallel=*/false);
    layer.load_full(weight, bias);
    expect_near(layer.forward(x, batch), linear(x, batch, in, weight, out, bias));
  }
}

TEST(Layers, LmHeadSplitsTheHiddenDimension) {
  ShardingMetadata kv3;
  kv3.num_kv_heads = 3;  // must not matter: lm_head always uses the grain split
  for (auto& tp : tp_groups()) {
    const int batch = 2, hidden = 101, vocab = 13;
    auto x = pattern(batch * hidden, 11), weight = pattern(vocab * hidden, 12);
    LmHead head(hidden, vocab, kv3, tp);
    head.load_full(weight, {});
    if (tp->size() == 2) EXPECT_EQ(head.widths(), (std::vector<int>{51, 50}));
    expect_near(head.forward(x, batch), linear(x, batch, hidden, weight, vocab, {}));
  }
}

TEST(Layers, VocabParallelEmbeddingLooksUpEveryId) {
  for (auto& tp : tp_groups()) {
    const int vocab = 11, dim = 5;
    auto table = pattern(vocab * dim, 13);
    VocabParallelEmbedding emb(vocab, dim, tp);
    emb.load_full(table);
    std::vector<int> ids{0, 10, 3, 3, 7, 1};
    auto y = emb.forward(ids);
    ASSERT_EQ(y.size(), ids.size() * dim);
    for (std::size_t n = 0; n < ids.size(); ++n)
      for (int d = 0; d < dim; ++d) ASSERT_EQ(y[n * dim + d], table[ids[n] * dim + d]);
    std::vector<int> bad{vocab};
    EXPECT_THROW(emb.forward(bad), std::out_of_range);
  }
}

TEST(Layers, TwoModelsKeepTheirOwnWidths) {
  // Same layer shape, different kv heads: each model's layer keeps its own split.
  auto tp = test::world();
  ShardingMetadata vision, llm;
  vision.num_kv_heads = 3;
  llm.num_kv_heads = 2;
  ColumnParallelLinear a(8, 192, "q_proj", vision, tp), b(8, 192, "q_proj", llm, tp);
  EXPECT_EQ(a.widths(), shard_sizes(192, tp->size(), "q_proj", vision));
  EXPECT_EQ(b.widths(), shard_sizes(192, tp->size(), "q_proj", llm));
  if (tp->size() == 2) {
    EXPECT_EQ(a.widths(), (std::vector<int>{128, 64}));
    EXPECT_EQ(b.widths(), (std::vector<int>{96, 96}));
  }
}

}  // namespace
}  // namespace gridlock
