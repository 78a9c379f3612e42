// Sharding a scan across machines: `scan --shard I/N --facts-out FILE` scans a deterministic
// 1/N of the translation units and writes their facts for `gridlock merge`.
//
// The split: the units in path order, cut where the running total of their main files' sizes
// crosses each k/N of the whole. Every shard is a contiguous run of paths (units of one
// directory share headers, and a shard's cache stays warm), shards differ in bytes by at most
// one file, and an edit moves at most the units at a cut to a neighbouring shard.
#pragma once

#include "cli/scan_options.h"
#include "facts/by_file.h"
#include "facts/facts.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gridlock::cli {

struct ShardSpec {
  size_t index = 1;  // 1-based
  size_t count = 1;
};
// "I/N" with 1 <= I <= N; nothing otherwise.
std::optional<ShardSpec> parseShard(const std::string& text);

// --shard and --facts-out on `scan`.
void addShardOptions(CLI::App& cmd, ScanOptions& o);

// The positions (into `files`, ascending) of the units of shard `spec`; `sizes[i]` is the size
// of files[i]'s main file.
std::vector<size_t> shardPositions(const std::vector<std::string>& files,
                                   const std::vector<std::uint64_t>& sizes, ShardSpec spec);

// What a scan does with --shard/--facts-out: which of `files` it scans (all without a shard).
struct ShardPlan {
  ShardSpec spec;
  std::vector<size_t> positions;
  std::vector<std::string> files;  // files[positions[k]]
};
ShardPlan planShard(const ScanOptions& o, const std::vector<std::string>& files);

// Writes the facts file of a finished shard (--facts-out), and says so on stderr (with -v,
// every unit it holds).
void writeShardFacts(const ScanOptions& o, const ScanRun& run, const std::vector<std::string>& all,
                     const ShardPlan& plan, const std::vector<facts::UnitFacts>& tus,
                     const index::CacheCounts& counts);

}  // namespace gridlock::cli
