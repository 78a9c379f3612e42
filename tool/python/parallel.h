// Work spread over threads, for the Python frontend's per-file steps.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace gridlock::python {

// Runs `work(i)` for i in [0, n) on `jobs` threads (0: all cores).
template <typename Work>
void parallel(size_t n, unsigned jobs, const Work& work) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, std::max<size_t>(n, 1)));
  std::atomic<size_t> next{0};
  auto run = [&] {
    for (size_t i; (i = next++) < n;) work(i);
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(run);
  run();
  for (auto& t : threads) t.join();
}

}  // namespace gridlock::python
