// Device collectives (NCCL) and device layers (cuBLAS + NCCL) against the host reference.
// Without a usable device every test skips and says why; GRIDLOCK_REQUIRE_GPU=1 (set by
// scripts/gpu-runtime.sh) turns that skip into a failure, so a GPU run cannot pass vacuously.
#include "gridlock/device.h"
#include "gridlock/device_collectives.h"
#include "gridlock/device_comm.h"
#include "gridlock/device_layers.h"
#include "gridlock/error.h"
#include "gridlock/grid.h"
#include "gridlock/layers.h"
#include "gridlock/process_group.h"
#include "test_world.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace gridlock {
namespace {

// Ranks of `group` on this node; NCCL needs one device each.
int ranks_on_node(const ProcessGroup& group) {
  MPI_Comm node;
  MPI_Comm_split_type(group.comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 0;
  MPI_Comm_size(node, &n);
  MPI_Comm_free(&node);
  return n;
}

class Gpu : public testing::Test {
 protected:
  void SetUp() override {
    auto w = test::world();
    std::string reason = device::unavailable_reason();
    if (reason.empty() && device::count() < ranks_on_node(*w))
      reason = std::to_string(ranks_on_node(*w)) + " ranks on this node but only " +
               std::to_string(device::count()) + " CUDA device(s); NCCL needs one each";
    if (!reason.empty()) {
      const char* require = std::getenv("GRIDLOCK_REQUIRE_GPU");
      if (require && std::string(require) == "1") FAIL() << "GPU required: " << reason;
      GTEST_SKIP() << "GPU test skipped: " << reason;
    }
    static int selected = device::select_for(*w);
    (void)selected;
  }
};

template <class T>
struct Buf {
  explicit Buf(std::size_t n) : n(n) {
    EXPECT_EQ(cudaMalloc(&p, sizeof(T) * (n ? n : 1)), cudaSuccess);
  }
  explicit Buf(const std::vector<T>& host) : Buf(host.size()) {
    EXPECT_EQ(cudaMemcpy(p, host.data(), sizeof(T) * n, cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Buf() { cudaFree(p); }
  std::vector<T> get() const {
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<T> host(n);
    EXPECT_EQ(cudaMemcpy(host.data(), p, sizeof(T) * n, cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }
  T* p = nullptr;
  std::size_t n;
};

float value(int rank, int i) { return static_cast<float>((rank + 1) * 3 + i % 7); }
std::vector<float> input(int rank, int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = value(rank, i);
  return v;
}

// Groups with NCCL communicators, released before MPI_Finalize (see DeviceCommsTeardown).
struct DeviceState {
  std::unique_ptr<Grid> grid;           // its tp group's communicator is split from the grid root's
  std::shared_ptr<ProcessGroup> probe;  // takes the deliberate NCCL errors
};

DeviceState& state() {
  static DeviceState s;
  return s;
}

// NCCL teardown after MPI_Finalize or during static destruction (CUDA already unloading) can
// hang; drop every communicator while both are still up.
class DeviceCommsTeardown : public testing::Environment {
 public:
  void TearDown() override {
    state().grid.reset();
    state().probe.reset();
    test::world()->set_device_comm(nullptr);
  }
};
const auto* const teardown = testing::AddGlobalTestEnvironment(new DeviceCommsTeardown);

// The world (communicator bootstrapped lazily through MPI), plus a tp-2 grid's tp group.
std::vector<std::shared_ptr<ProcessGroup>> groups_under_test() {
  auto w = test::world();
  std::vector<std::shared_ptr<ProcessGroup>> out{w};
  if (w->size() % 2 == 0) {
    if (!state().grid) {
      GridOptions o;
      o.world = w->size();
      o.tp = 2;
      state().grid = std::make_unique<Grid>(w, o);
      derive_device_comms(*state().grid);
    }
    out.push_back(state().grid->groups().tp);
  }
  return out;
}

TEST_F(Gpu, AllReduceMatchesHostReference) {
  for (auto& g : groups_under_test()) {
    const int n = 1 << 16;
    Buf<float> buf(input(g->global_rank(), n));
    device::all_reduce(buf.p, n, ReduceOp::Sum, *g);
    auto got = buf.get();
    for (int i = 0; i < n; ++i) {
      float s = 0;
      for (int r : g->ranks()) s += value(r, i);
      ASSERT_EQ(got[i], s) << g->name() << " " << i;
    }
    Buf<std::int64_t> mx(std::vector<std::int64_t>{g->global_rank()});
    device::all_reduce(mx.p, 1, ReduceOp::Max, *g);
    EXPECT_EQ(mx.get()[0],
              g->ranks().back() > g->ranks().front() ? g->ranks().back() : g->ranks().front());
  }
}

TEST_F(Gpu, BroadcastAllGatherReduceScatter) {
  for (auto& g : groups_under_test()) {
    const int n = 1000;
    for (int root = 0; root < g->size(); ++root) {
      Buf<float> b(g->rank() == root ? input(100 + root, n) : std::vector<float>(n, -1.f));
      device::broadcast(b.p, n, root, *g);
      EXPECT_EQ(b.get(), input(100 + root, n)) << g->name();
    }
    Buf<float> in(input(g->global_rank(), n)), out(n * g->size());
    device::all_gather(in.p, out.p, n, *g);
    std::vector<float> expect;
    for (int r : g->ranks()) {
      auto part = input(r, n);
      expect.insert(expect.end(), part.begin(), part.end());
    }
    EXPECT_EQ(out.get(), expect) << g->name();

    Buf<float> full(input(g->global_rank(), n * g->size())), mine(n);
    device::reduce_scatter(full.p, mine.p, n, ReduceOp::Sum, *g);
    auto got = mine.get();
    for (int i = 0; i < n; ++i) {
      float s = 0;
      for (int r : g->ranks()) s += value(r, g->rank() * n + i);
      ASSERT_EQ(got[i], s);
    }
  }
}

TEST_F(Gpu, AllGatherUnevenAndSendRecv) {
  for (auto& g : groups_under_test()) {
    std::vector<int> widths;
    for (int r = 0; r < g->size(); ++r) widths.push_back((r * 5 + 3) % 7);
    int total = 0;
    for (int w : widths) total += w;
    Buf<float> in(input(g->global_rank(), widths[g->rank()])), out(total);
    device::all_gather_uneven<float>(in.p, widths, out.p, *g);
    std::vector<float> expect;
    for (int r = 0; r < g->size(); ++r) {
      auto part = input(g->global_rank(r), widths[r]);
      expect.insert(expect.end(), part.begin(), part.end());
    }
    EXPECT_EQ(out.get(), expect) << g->name();

    if (g->size() < 2) continue;
    int next = (g->rank() + 1) % g->size(), prev = (g->rank() + g->size() - 1) % g->size();
    Buf<float> s(input(g->global_rank(), 64)), r(64);
    // Grouped so that the ring cannot deadlock.
    device::group_start();
    device::send(s.p, 64, next, *g);
    device::recv(r.p, 64, prev, *g);
    device::group_end();
    EXPECT_EQ(r.get(), input(g->global_rank(prev), 64));
  }
}

std::vector<float> pattern(int n, int seed) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(((i * 37 + seed * 11) % 23) - 11) / 8.f;
  return v;
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-3f * (1.f + std::fabs(want[i]))) << "element " << i;
}

TEST_F(Gpu, LayersGiveTheHostNumbers) {
  for (auto& tp : groups_under_test()) {
    ShardingMetadata kv3;
    kv3.num_kv_heads = 3;
    const int batch = 4, in = 24, out = 192;
    auto x = pattern(batch * in, 1), weight = pattern(out * in, 2), bias = pattern(out, 3);
    for (bool gather : {false, true}) {
      ColumnParallelLinear col(in, out, "q_proj", kv3, tp, gather);
      col.load_full(weight, bias);
      expect_near(device::forward(col, x, batch), col.forward(x, batch));
    }
    RowParallelLinear row(out, in, "o_proj", {}, tp, false);
    auto w2 = pattern(in * out, 4), b2 = pattern(in, 5), x2 = pattern(batch * out, 6);
    row.load_full(w2, b2);
    expect_near(device::forward(row, x2, batch), row.forward(x2, batch));

    LmHead head(101, 13, kv3, tp);
    auto wh = pattern(13 * 101, 7), xh = pattern(2 * 101, 8);
    head.load_full(wh, {});
    expect_near(device::forward(head, xh, 2), head.forward(xh, 2));

    VocabParallelEmbedding emb(11, 5, tp);
    emb.load_full(pattern(55, 9));
    std::vector<int> ids{0, 10, 3, 3, 7, 1};
    EXPECT_EQ(device::forward(emb, ids), emb.forward(ids));
  }
}

TEST_F(Gpu, NcclErrorsNameCallAndGroup) {
  // Last, on a group of its own: an NCCL error must not leave other tests a broken comm.
  auto w = test::world();
  state().probe = w->split(0, w->rank(), "probe");
  Buf<float> b(4);
  try {
    device::broadcast(b.p, 4, w->size() + 5, *state().probe);  // no such root
    FAIL() << "no exception";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.library(), "NCCL");
    EXPECT_EQ(e.call(), "ncclBroadcast");
    EXPECT_EQ(e.group(), "probe");
    EXPECT_NE(std::string(e.what()).find("ncclBroadcast"), std::string::npos);
  }
}

}  // namespace
}  // namespace gridlock
