// A facts file: what `scan --shard I/N --facts-out FILE` and the Clang plugin (tool/plugin, one
// unit per file) write and `gridlock merge` reads.
// It carries everything merge needs to write the report alone: the root, the rule packs, the
// options that shape the report, the list of every translation unit of the whole scan, and
// the facts of this shard's units. A text header names the format; the rest is packed
// (cache/packed.h), so a damaged file is found before it is used: the digest of the facts'
// binary layout, the scan's settings as CBOR, then each unit's facts in the binary form
// (facts/binary_codec.h), which a gridlock of another layout refuses to read.
#pragma once

#include "facts/facts.h"
#include "index/inventory.h"
#include "rules/rule_set.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gridlock::pipeline {

struct FactsFile {
  // The scan's configuration: shards of one scan agree on all of it.
  std::string root;
  nlohmann::json rules;     // rules_codec.h toJson(RuleSet)
  std::string rulesDigest;  // rules_codec.h digestOf()
  bool plan = false;        // the rewriter's facts were collected (scan --plan)
  bool allowParseErrors = false;
  bool subset = false;             // positional paths restricted the scan to some units
  std::vector<std::string> units;  // every TU of the whole scan, root-relative, in scan order

  size_t shard = 1, shards = 1;     // this file is shard `shard` of `shards`
  std::vector<size_t> positions;    // the units this file holds (indices into `units`)
  std::vector<facts::TuFacts> tus;  // their facts, in the same order
  index::CacheCounts cache;
};

// A facts file of a scan of `root` with `rules`: what every file of one scan shares.
FactsFile factsFileFor(const std::string& root, const rules::RuleSet& rules);

std::string encodeFactsFile(const FactsFile& f);
// Throws std::runtime_error("PATH: problem") for a file that cannot be read, is no facts
// file, or is damaged.
FactsFile readFactsFile(const std::string& path);

}  // namespace gridlock::pipeline
