#include "pipeline/shard.h"

#include <sys/stat.h>

#include <algorithm>
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

}  // namespace gridlock::pipeline
