// Writing a shard's facts file (--facts-out): the full build's alone, which has the merge that
// reads it (pipeline/facts_file.h); the Python build refuses --facts-out before it scans
// (pipeline/frontends_python.cpp).
#include "pipeline/facts_file.h"
#include "pipeline/shard.h"
#include "support/confine.h"
#include "support/output.h"
#include "support/paths.h"

#include <algorithm>
#include <iostream>

namespace gridlock::pipeline {

void writeShardFacts(const ScanRequest& o, const Scope& scope, const std::vector<Units>& scanned) {
  FactsFile f = factsFileFor(scope.root, scope.rules);
  f.plan = o.rewriteFacts;
  f.allowParseErrors = o.allowParseErrors;
  f.subset = scope.subset;
  ShardSpec spec = o.shard.empty() ? ShardSpec{} : *parseShard(o.shard);
  f.shard = spec.index;
  f.shards = spec.count;
  for (const Units& s : scanned) {
    for (size_t p : s.shardPositions) f.positions.push_back(f.units.size() + p);
    for (const auto& file : s.wholeScan) {
      std::string abs = support::realPath(file), rel;
      f.units.push_back(support::relativeTo(scope.root, abs, rel) ? rel : abs);
    }
    for (const auto& unit : s.units) f.tus.push_back(facts::wholeFacts(unit));
    f.cache.hits += s.cache.hits;
    f.cache.misses += s.cache.misses;
  }
  support::writeOutput(o.factsOut, encodeFactsFile(f));
  std::string name = "gridlock: shard " + std::to_string(f.shard) + "/" + std::to_string(f.shards);
  std::cerr << name << ": " << f.tus.size() << " of " << f.units.size()
            << " translation units; facts in " << o.factsOut << "\n";
  if (o.cache.verbose) {
    std::vector<std::string> mine;
    for (size_t i : f.positions) mine.push_back(f.units[i]);
    std::sort(mine.begin(), mine.end());  // path order: a shard is a run of paths
    for (const auto& u : mine) std::cerr << name << ": " << u << "\n";
  }
}

}  // namespace gridlock::pipeline
