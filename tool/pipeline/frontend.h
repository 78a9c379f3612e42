// A frontend of the pipeline: what turns one language's inputs under the run's root into
// per-unit facts (facts::UnitFacts). The pipeline (pipeline/pipeline.h) runs every frontend
// frontendsFor() lists, one after another, and merges their units into one inventory, so a
// command never knows which languages a scan read. The C++ frontend (pipeline/cpp_frontend.h)
// reads compile databases; a frontend of another language finds its own files from the root.
#pragma once

#include "facts/by_file.h"
#include "index/inventory.h"
#include "pipeline/scan_request.h"
#include "rules/rule_set.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gridlock::pipeline {

// What every frontend of one run shares.
struct Scope {
  std::string root;  // real path of the request's root
  const rules::RuleSet& rules;
  // Positional paths restricted the run to some files (request.files, or a diff's): a frontend
  // selects only its inputs among them; the gate then judges only what was scanned whole.
  bool subset = false;
  // Called after each unit, one call at a time, with the frontend's own count and total (the
  // progress line); empty with -q.
  std::function<void(size_t done, size_t total, const facts::UnitFacts& unit)> onUnitDone;
};

// What one frontend scanned.
struct Units {
  // One per unit (a C++ translation unit, a Python module), in an order fixed by the inputs
  // alone (not by timing): the pipeline keeps it, and reports rely on it.
  std::vector<facts::UnitFacts> units;
  // In a subset run, every other unit of the tree (the whole program the selected units are
  // part of: docs/scan.md, "Partial runs"), in the same kind of order; none in a full run, and
  // none in a shard (--facts-out).
  std::vector<facts::UnitFacts> context;
  // Units only seen (downstream checkouts: python/downstream.h), in a full or a subset run:
  // their program joins the inventory, nothing else of them does.
  std::vector<facts::UnitFacts> seen;
  std::map<std::string, std::string> downstream;  // their checkouts: absolute -> as named
  index::CacheCounts cache;  // of this frontend's facts cache; zero without one
  // Whether any input was selected. A run over a diff may select none: then no rule that
  // matched nothing is warned of.
  bool selected = false;
  // With --facts-out: every unit of the whole scan that this frontend would scan unsharded
  // (absolute paths, in scan order), and the places among them of `units` (this shard's, in
  // the same order). The pipeline writes them, every frontend's, into one facts file.
  std::vector<std::string> wholeScan;
  std::vector<size_t> shardPositions;
};

class Frontend {
 public:
  virtual ~Frontend() = default;
  // The units of this frontend's inputs in `scope`. Throws std::runtime_error naming the
  // problem on bad input (a missing database, a path outside the root, nothing to scan).
  virtual Units scan(const Scope& scope) = 0;
  // Called once every frontend has scanned and the progress line is cleared, with what scan()
  // returned: warnings of options that did nothing.
  virtual void finish(const Scope& /*scope*/, const Units& /*scanned*/) {}
};

// The frontends a request scans with `rules`, in the order their units come in the inventory:
// the C++ translation units of its compile databases, then, when the packs hold Python rules or
// the request names Python roots, the Python modules (pipeline/python_frontend.h). A frontend
// of another language is one more line in the registration. Throws when there is nothing to
// read (no build directory and no Python), and, in the Python build, on what only the full
// build reads (a compile database, a C++ file, a shard's facts file). Defined by the
// registration the binary links: pipeline/frontends_full.cpp (gridlock) or
// pipeline/frontends_python.cpp (gridlock-python).
std::vector<std::unique_ptr<Frontend>> frontendsFor(const ScanRequest& request,
                                                    const rules::RuleSet& rules);

// What the binary's frontends are, for `gridlock --version`: "built with Clang 19.1.7", or
// the Python build's words. Defined beside frontendsFor.
std::string buildDescription();
// Whether the binary reads compile databases (-p, --extra-db): what a run with nothing to
// scan is told to pass. Defined beside frontendsFor.
bool readsCompileDatabases();

}  // namespace gridlock::pipeline
