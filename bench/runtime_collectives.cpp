// Benchmark (not a test): the runtime's host all-reduce and all-gather against raw
// MPI_Allreduce / MPI_Allgather, side by side in one run.
//
//   mpirun -np 2 gridlock_bench_runtime_collectives [--rounds R] [--max-mib M]
//
// Size is the all-reduce buffer, and the all-gather's output (each rank gives size/ranks).
// Each size runs R rounds; a round times raw and runtime back to back (which goes first
// alternates), enough iterations each to last ~10 ms, the time being the slowest rank's.
// Rounds pair up the two sides under the same machine load, so the reported ratio
// (runtime throughput / raw throughput, goal >= 0.95 from 1 MiB) is the median of the
// per-round ratios, and GB/s the median of each side. Shared, busy machines stay readable.
#include "gridlock/collectives.h"
#include "gridlock/process_group.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

double timed(const std::function<void()>& op, int iters, MPI_Comm comm) {
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) op();
  double local = (MPI_Wtime() - t0) / iters, slowest = 0;
  MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

struct Pair {
  double raw = 0, runtime = 0, ratio = 0;  // medians
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

Pair compare(const std::function<void()>& raw, const std::function<void()>& runtime, int rounds,
             MPI_Comm comm) {
  raw();
  runtime();  // warm-up: connections, buffers
  // Iterations for ~10 ms a side, agreed on by all ranks.
  double once = timed(raw, 1, comm);
  int iters = std::max(1, static_cast<int>(0.01 / std::max(once, 1e-7)));
  MPI_Bcast(&iters, 1, MPI_INT, 0, comm);
  std::vector<double> raws, runtimes, ratios;
  for (int r = 0; r < rounds; ++r) {
    double a, b;
    if (r % 2 == 0) {
      a = timed(raw, iters, comm);
      b = timed(runtime, iters, comm);
    } else {
      b = timed(runtime, iters, comm);
      a = timed(raw, iters, comm);
    }
    raws.push_back(a);
    runtimes.push_back(b);
    ratios.push_back(a / b);
  }
  return {median(raws), median(runtimes), median(ratios)};
}

std::string human(std::size_t bytes) {
  char buf[32];
  if (bytes >= (1u << 20))
    std::snprintf(buf, sizeof buf, "%zu MiB", bytes >> 20);
  else
    std::snprintf(buf, sizeof buf, "%zu KiB", bytes >> 10);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rounds = 11;
  std::size_t max_mib = 64;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--max-mib")) max_mib = std::strtoul(argv[i + 1], nullptr, 10);
  }
  auto world = gridlock::ProcessGroup::from_comm(MPI_COMM_WORLD, "world");
  int ranks = world->size();
  if (world->rank() == 0) {
    std::printf("ranks %d, rounds %d, medians over rounds, GB/s = size / time\n", ranks, rounds);
    std::printf("%-10s %9s %12s %12s %8s\n", "op", "size", "raw GB/s", "runtime GB/s", "ratio");
  }
  for (const char* op : {"allreduce", "allgather"}) {
    for (std::size_t bytes = 4096; bytes <= (max_mib << 20); bytes *= 2) {
      std::size_t n = bytes / sizeof(float);
      std::size_t part = n / ranks;
      std::vector<float> a(n, 1.f), b(n, 1.f), in(part, 1.f);
      Pair p;
      if (!std::strcmp(op, "allreduce")) {
        p = compare(
            [&] {
              MPI_Allreduce(MPI_IN_PLACE, a.data(), static_cast<int>(n), MPI_FLOAT, MPI_SUM,
                            MPI_COMM_WORLD);
            },
            [&] { gridlock::all_reduce<float>(b, gridlock::ReduceOp::Sum, *world); }, rounds,
            MPI_COMM_WORLD);
      } else {
        std::span<float> out(b.data(), part * ranks);
        p = compare(
            [&] {
              MPI_Allgather(in.data(), static_cast<int>(part), MPI_FLOAT, a.data(),
                            static_cast<int>(part), MPI_FLOAT, MPI_COMM_WORLD);
            },
            [&] { gridlock::all_gather<float>(in, out, *world); }, rounds, MPI_COMM_WORLD);
      }
      if (world->rank() == 0)
        std::printf("%-10s %9s %12.2f %12.2f %8.3f\n", op, human(bytes).c_str(),
                    bytes / p.raw / 1e9, bytes / p.runtime / 1e9, p.ratio);
    }
  }
  world.reset();
  MPI_Finalize();
  return 0;
}
