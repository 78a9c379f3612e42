// Benchmark (not a test) of the Python frontend as a scan runs it (python/python_scan.h): the
// packs' Python files under ROOT read (through the module facts cache when --cache DIR is
// given), resolved, merged and laundered. Prints one JSON line: modules, cache hits and misses,
// reads counted, seconds, peak memory. bench/megatron_scan.py runs it cold and warm beside
// Megatron-LM's checker.
#include "python/python_scan.h"
#include "analysis/laundering.h"
#include "analysis/summary.h"
#include "index/inventory.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  using namespace gridlock;
  python::PythonScan scan;
  std::vector<std::string> packs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rules" && i + 1 < argc)
      packs.push_back(argv[++i]);
    else if (a == "--cache" && i + 1 < argc)
      scan.cacheDir = argv[++i];
    else if (a == "--jobs" && i + 1 < argc)
      scan.options.jobs = static_cast<unsigned>(std::stoul(argv[++i]));
    else
      scan.options.root = a;
  }
  if (scan.options.root.empty() || packs.empty()) {
    std::fprintf(stderr,
                 "usage: gridlock_bench_python_scan ROOT --rules PACK [--cache DIR] "
                 "[--jobs N]\n");
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  rules::RuleSet rules = rules::RuleSet::load(packs);
  python::PythonUnits units = python::scanPython(scan, rules);
  // Never freed (as clang's -disable-free, and as gridlock scan's): the process ends next, and
  // the kernel takes the pages back faster than the inventory's destructors would.
  index::Inventory& inventory = *new index::Inventory(index::merge(std::move(units.units)));
  analysis::launder(inventory, rules);
  analysis::Summary s = analysis::summarize(inventory);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::string kinds;
  for (const auto& [kind, n] : s.byKind)
    kinds += (kinds.empty() ? "\"" : ", \"") + std::string(facts::spell(kind)) +
             "\": " + std::to_string(n);
  std::printf(
      "{\"modules\": %zu, \"hits\": %zu, \"misses\": %zu, \"files_read\": %zu, \"reads\": %zu, "
      "\"by_kind\": {%s}, "
      "\"writes\": %zu, \"parse_errors\": %zu, \"seconds\": %.3f, \"max_rss_kb\": %ld}\n",
      units.modules, units.cacheHits, units.cacheMisses, units.filesRead, s.total, kinds.c_str(),
      s.writes, s.parseErrors, seconds, ru.ru_maxrss);
  return 0;
}
