#include "pipeline/shard.h"

#include "pipeline/facts_file.h"
#include "support/confine.h"
#include "support/output.h"
#include "support/paths.h"

#include <sys/stat.h>

#include <algorithm>
#include <iostream>
#include <numeric>

namespace gridlock::pipeline {

std::optional<ShardSpec> parseShard(const std::string& text) {
  size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return std::nullopt;
  auto number = [](const std::string& s) -> std::optional<size_t> {
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit))
      return std::nullopt;
    return std::stoul(s);
  };
  std::optional<size_t> i = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
  if (!i || !n || *i < 1 || *i > *n) return std::nullopt;
  return ShardSpec{*i, *n};
}

std::vector<size_t> shardPositions(const std::vector<std::string>& files,
                                   const std::vector<std::uint64_t>& sizes, ShardSpec spec) {
  std::vector<size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return files[a] < files[b]; });
  // Every unit weighs its size plus one, so empty files still count.
  std::uint64_t total = 0;
  for (size_t i : order) total += sizes[i] + 1;
  std::vector<size_t> mine;
  std::uint64_t before = 0;
  for (size_t i : order) {
    std::uint64_t w = sizes[i] + 1;
    // The unit's midpoint, doubled to stay in integers, decides its shard.
    std::uint64_t shard = (2 * before + w) * spec.count / (2 * total);
    if (shard == spec.index - 1) mine.push_back(i);
    before += w;
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

ShardPlan planShard(const ScanRequest& o, const std::vector<std::string>& files) {
  ShardPlan p;
  if (!o.shard.empty()) p.spec = *parseShard(o.shard);
  std::vector<std::uint64_t> sizes;
  for (const auto& f : files) {
    struct stat st;
    sizes.push_back(::stat(f.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0);
  }
  p.positions = shardPositions(files, sizes, p.spec);
  for (size_t i : p.positions) p.files.push_back(files[i]);
  return p;
}

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
