// The scan pipeline every command that reads code runs (scan, gate, callers, rewrite; merge
// from facts files): the rules are loaded, each frontend (pipeline/frontend.h) scans its
// inputs under the root, their units merge into one inventory (index::merge), a tree that an
// interrupted rewrite --apply left mixed is refused (apply/journal.h), laundered reads are
// found (analysis::launder), and rule-pack entries that matched nothing are warned of.
#pragma once

#include "facts/by_file.h"
#include "facts/facts.h"
#include "index/inventory.h"
#include "pipeline/frontend.h"
#include "pipeline/scan_request.h"
#include "rules/rule_set.h"

#include <memory>
#include <string>
#include <vector>

namespace gridlock::pipeline {

struct ScanRun {
  rules::RuleSet rules;
  index::Inventory inventory;
  std::string root;     // real path
  bool subset = false;  // positional paths restricted the run to some units
};

// Throws on bad input (rules, root, database, positional paths, nothing to scan). Warns on
// stderr, once per process, of the rule-pack entries and scope include globs that matched
// nothing (warnUnmatched), except in a shard (--facts-out): merge warns for the whole.
// The frontends are frontendsFor(request, rules).
ScanRun scan(const ScanRequest& request);

// The inventory of units scanned elsewhere (the shards of a scan, the Clang plugin's facts
// files), merged and laundered as scan() does with its own.
index::Inventory inventoryOf(std::vector<facts::TuFacts> units, const rules::RuleSet& rules,
                             bool rewriteFacts);

// A pack entry that matches nothing would pass as "0 reads": warns on stderr, once per process,
// with one line per pack (how many of its entries matched nothing), or, with `verbose` (-v) or
// when it is one entry, one line per entry (rules::RuleSet::unmatched).
void warnUnmatched(const ScanRun& run, bool verbose);

}  // namespace gridlock::pipeline
