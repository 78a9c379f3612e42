// Host collectives against a single-process reference: every rank's input is a known function
// of (rank, index), so each rank computes the expected result alone and compares exactly.
#include "gridlock/collectives.h"
#include "gridlock/grid.h"
#include "gridlock/process_group.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace gridlock {
namespace {

// Small integers: float sums of them are exact, so comparisons can be ==.
float value(int rank, int i) { return static_cast<float>((rank + 1) * 3 + i % 7); }

std::vector<float> input(int rank, int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = value(rank, i);
  return v;
}

// The groups exercised: the world, and this rank's tp and dp groups of a tp-2 grid.
std::vector<std::shared_ptr<ProcessGroup>> groups_under_test() {
  auto w = test::world();
  std::vector<std::shared_ptr<ProcessGroup>> out{w};
  if (w->size() % 2 == 0) {
    static Grid grid(w, [&] {
      GridOptions o;
      o.world = w->size();
      o.tp = 2;
      return o;
    }());
    out.push_back(grid.groups().tp);
    out.push_back(grid.groups().dp);
  }
  return out;
}

TEST(Collectives, AllReduceEveryOp) {
  for (auto& g : groups_under_test()) {
    SCOPED_TRACE(g->name());
    const int n = 1000;
    std::vector<float> sum = input(g->global_rank(), n), mx = sum, mn = sum;
    all_reduce<float>(sum, ReduceOp::Sum, *g);
    all_reduce<float>(mx, ReduceOp::Max, *g);
    all_reduce<float>(mn, ReduceOp::Min, *g);
    for (int i = 0; i < n; ++i) {
      float s = 0, hi = -1e30f, lo = 1e30f;
      for (int r : g->ranks()) {
        s += value(r, i);
        hi = std::max(hi, value(r, i));
        lo = std::min(lo, value(r, i));
      }
      ASSERT_EQ(sum[i], s) << i;
      ASSERT_EQ(mx[i], hi) << i;
      ASSERT_EQ(mn[i], lo) << i;
    }
    std::vector<std::int64_t> prod{g->global_rank() + 2};
    all_reduce<std::int64_t>(prod, ReduceOp::Prod, *g);
    std::int64_t p = 1;
    for (int r : g->ranks()) p *= r + 2;
    EXPECT_EQ(prod[0], p);
  }
}

TEST(Collectives, BroadcastFromEveryRoot) {
  for (auto& g : groups_under_test()) {
    for (int root = 0; root < g->size(); ++root) {
      std::vector<double> buf(33, -1.0);
      if (g->rank() == root)
        for (int i = 0; i < 33; ++i) buf[i] = root * 100 + i;
      broadcast<double>(buf, root, *g);
      for (int i = 0; i < 33; ++i)
        ASSERT_EQ(buf[i], root * 100 + i) << g->name() << " root " << root;
    }
  }
}

TEST(Collectives, AllGatherEqualWidths) {
  for (auto& g : groups_under_test()) {
    const int n = 17;
    std::vector<float> in = input(g->global_rank(), n), out(n * g->size());
    all_gather<float>(in, out, *g);
    for (int r = 0; r < g->size(); ++r)
      for (int i = 0; i < n; ++i) ASSERT_EQ(out[r * n + i], value(g->global_rank(r), i));
    std::vector<float> wrong(n * g->size() + 1);
    EXPECT_THROW(all_gather<float>(in, wrong, *g), std::invalid_argument);
  }
}

TEST(Collectives, AllGatherUnevenPadsGathersTrims) {
  for (auto& g : groups_under_test()) {
    // Widths 3, 0, 5, 1, ... zero-width ranks included.
    std::vector<int> widths;
    for (int r = 0; r < g->size(); ++r) widths.push_back((r * 5 + 3) % 7);
    std::vector<float> in = input(g->global_rank(), widths[g->rank()]);
    std::vector<float> out = all_gather_uneven<float>(in, widths, *g);
    std::vector<float> expect;
    for (int r = 0; r < g->size(); ++r) {
      auto part = input(g->global_rank(r), widths[r]);
      expect.insert(expect.end(), part.begin(), part.end());
    }
    EXPECT_EQ(out, expect) << g->name();
  }
}

TEST(Collectives, AllGatherColumnsJoinsBlocksSideBySide) {
  auto w = test::world();
  const int rows = 3;
  std::vector<int> widths;
  for (int r = 0; r < w->size(); ++r) widths.push_back(r % 3);  // 0, 1, 2, 0, ...
  int total = 0;
  for (int x : widths) total += x;
  int mine = widths[w->rank()], col0 = 0;
  for (int r = 0; r < w->rank(); ++r) col0 += widths[r];
  std::vector<float> local(rows * mine);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < mine; ++j) local[i * mine + j] = i * 1000 + col0 + j;
  std::vector<float> out = all_gather_columns<float>(local, rows, widths, *w);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(rows * total));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < total; ++j) ASSERT_EQ(out[i * total + j], i * 1000 + j);
}

TEST(Collectives, ReduceScatterGivesEachRankItsBlock) {
  for (auto& g : groups_under_test()) {
    const int n = 9;
    std::vector<float> in = input(g->global_rank(), n * g->size()), out(n);
    reduce_scatter<float>(in, out, ReduceOp::Sum, *g);
    for (int i = 0; i < n; ++i) {
      float s = 0;
      for (int r : g->ranks()) s += value(r, g->rank() * n + i);
      ASSERT_EQ(out[i], s) << g->name() << " " << i;
    }
  }
}

TEST(Collectives, SendRecvAroundARing) {
  for (auto& g : groups_under_test()) {
    if (g->size() < 2) continue;
    int next = (g->rank() + 1) % g->size(), prev = (g->rank() + g->size() - 1) % g->size();
    std::vector<float> out = input(g->global_rank(), 64), in(64);
    // Even ranks send first, odd ranks receive first: no reliance on eager buffering.
    if (g->rank() % 2 == 0) {
      send<float>(out, next, *g, 7);
      recv<float>(in, prev, *g, 7);
    } else {
      recv<float>(in, prev, *g, 7);
      send<float>(out, next, *g, 7);
    }
    EXPECT_EQ(in, input(g->global_rank(prev), 64)) << g->name();
  }
}

}  // namespace
}  // namespace gridlock
