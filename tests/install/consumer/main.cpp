// Uses the installed runtime: pure layout arithmetic, the MPI-backed collectives and legacy
// API (linked, not run: no MPI_Init here) and, when asked, the CUDA library. The collectives
// take std::span: they compile only as C++20, which the consumer does not ask for itself.
#include <gridlock/collectives.h>
#include <gridlock/parallel_state.h>
#include <gridlock/sharding.h>
#ifdef CONSUMER_WITH_CUDA
#include <gridlock/device.h>
#endif

#include <cstdio>

int main() {
  std::vector<int> sizes = gridlock::shard_sizes(10, 4, "mlp.w1", gridlock::ShardingMetadata{});
  std::printf("shards:");
  for (int s : sizes) std::printf(" %d", s);
  std::printf("\ninitialized: %d\n", gridlock::parallel_state::model_parallel_is_initialized());
  // Instantiated and linked; called only with an initialised group, so never here.
  void (*volatile reduce)(std::span<float>, gridlock::ReduceOp, const gridlock::ProcessGroup&) =
      &gridlock::all_reduce<float>;
  std::printf("all_reduce: %s\n", reduce ? "linked" : "missing");
#ifdef CONSUMER_WITH_CUDA
  std::printf("cuda: %d\n", gridlock::device::built_with_cuda());
#endif
  return 0;
}
