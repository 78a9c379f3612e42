// Sharding a scan across machines: `scan --shard I/N --facts-out FILE` scans a deterministic
// 1/N of the translation units and writes their facts for `gridlock merge`.
//
// The split: the units in path order, cut where the running total of their main files' sizes
// crosses each k/N of the whole. Every shard is a contiguous run of paths (units of one
// directory share headers, and a shard's cache stays warm), shards differ in bytes by at most
// one file, and an edit moves at most the units at a cut to a neighbouring shard.
#pragma once

#include "facts/by_file.h"
#include "facts/facts.h"
#include "pipeline/frontend.h"
#include "pipeline/scan_request.h"

#include <optional>
#include <string>
#include <vector>

namespace gridlock::pipeline {

struct ShardSpec {
  size_t index = 1;  // 1-based
  size_t count = 1;
};
// "I/N" with 1 <= I <= N; nothing otherwise.
std::optional<ShardSpec> parseShard(const std::string& text);

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
ShardPlan planShard(const ScanRequest& o, const std::vector<std::string>& files);

// Writes the facts file of a finished shard (--facts-out): every frontend's units of the whole
// scan and this shard's among them (Units::wholeScan, shardPositions), in frontend order, and
// says so on stderr (with -v, every unit it holds).
void writeShardFacts(const ScanRequest& o, const Scope& scope, const std::vector<Units>& scanned);

}  // namespace gridlock::pipeline
