// The Python frontend as a scan runs it: which .py files to read (the packs' scope, or the
// Python roots a .gridlock.json names), step one through a cache keyed by each file's bytes,
// step two over all of them, and the units of the files asked for. A driver (the pipeline)
// calls scanPython once per run and merges its units with the C++ ones.
#pragma once

#include "facts/by_file.h"
#include "python/downstream.h"
#include "python/frontend.h"
#include "rules/rule_set.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gridlock::python {

struct PythonScan {
  PythonOptions options;  // root, package root, jobs, overlay
  // Root-relative directories whose .py files are read ("" the root); empty: pythonDirs().
  std::vector<std::string> roots;
  // Root-relative files or directories the run is restricted to (positional paths): only
  // their modules become units; every module under `roots` is still read, so names resolve.
  std::vector<std::string> only;
  // The module facts cache: a cache::Store directory, "" for none.
  std::string cacheDir;
  std::uint64_t cacheBytes = 1ull << 30;
  // Downstream checkouts (python/downstream.h): read with the tree, so that names resolve
  // across both, into PythonUnits::downstream.
  std::vector<Downstream> downstream;
};

struct PythonUnits {
  std::vector<facts::UnitFacts> units;  // one per module, in file order
  // With `only`: the units of every other module read, in file order (the whole program the
  // units belong to: the pipeline's context, docs/scan.md "Partial runs").
  std::vector<facts::UnitFacts> context;
  std::vector<bool> fromCache;  // per unit: its module's facts came from the cache
  size_t modules = 0;           // modules read (units come from `only` among them)
  size_t cacheHits = 0, cacheMisses = 0;
  // Files read for their cache key: not recorded, their stamp changed or racy; the others
  // were only stat'ed (0 without a cache: the parse reads every file).
  size_t filesRead = 0;
  std::vector<std::string> warnings;  // rules that matched no definition
  // "cache: ...": a cache directory that could not be made, an entry damaged (and discarded).
  std::vector<std::string> cacheWarnings;
  // The downstream checkouts' modules, seen only (python::seenOnly), in file order; what was
  // left out of them as vendored copies of the tree, and their warnings (a file that does not
  // parse).
  std::vector<facts::UnitFacts> downstream;
  std::vector<std::string> vendored;
  std::vector<std::string> downstreamWarnings;
};

// Whether the packs hold Python rules: without them a scan reads no Python.
bool hasPythonRules(const rules::RuleSet& rules);

// The directories the packs' scope globs start in (include and edges; "megatron/core/**" ->
// "megatron/core", "**" -> ""), each once, none below another.
std::vector<std::string> pythonDirs(const rules::RuleSet& rules);

// Throws InputError: no .py file under the roots, a path outside the root, an `only` path
// that names no .py file.
PythonUnits scanPython(const PythonScan& scan, const rules::RuleSet& rules);

}  // namespace gridlock::python
