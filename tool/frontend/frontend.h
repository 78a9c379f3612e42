// Runs the read collector over translation units of a compile database, in parallel.
#pragma once

#include "cache/tu_cache.h"
#include "facts/by_file.h"
#include "facts/facts.h"
#include "frontend/compile_db.h"
#include "frontend/file_places.h"
#include "rules/rule_set.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gridlock::frontend {

struct FrontendOptions {
  std::string root;               // real path of --root
  RootAliases aliases;            // rootAliases(): files symlinked into the root from outside
  std::vector<std::string> only;  // positional paths: restrict to these files or directories
  // `only` lists the files a diff touches (gate --changed-since): each selects the units it is
  // or that include it; one that selects nothing (deleted, not C++, outside the root, a header
  // no unit includes) is skipped, not an error; an empty list selects no unit.
  bool onlyFromDiff = false;
  // Another frontend (Python's) reads the same run: a path of `only` under the root that
  // selects no unit here (a module, a directory of them) is skipped, not an error, and a
  // Python source is not looked for among the headers; the pipeline checks that some frontend
  // selected each path.
  bool othersSelectToo = false;
  unsigned jobs = 0;      // 0: all cores
  bool progress = false;  // a progress line on stderr
  // Called after each unit, one call at a time (pipeline/progress.h), instead of that line.
  std::function<void(size_t done, size_t total, const facts::UnitFacts& unit)> onUnitDone;
  CudaSettings cuda;
  // Absolute path -> contents read instead of the file on disk (the rewriter re-parses its
  // result before writing anything).
  std::map<std::string, std::string> overlay;
  // What only the rewriter reads: the groups in scope at every call, argument and parameter
  // offsets, function bodies, dependent calls. A plain scan or gate does not pay for them.
  bool rewriteFacts = false;
  // The facts cache (tool/cache): a TU whose entry is fresh is loaded, not parsed; a parse is
  // stored. Null: parse everything.
  cache::TuCache* cache = nullptr;
};

// The aliases (file_places.h) of the database's files: those the database names under `root`
// whose real path lies outside it.
RootAliases rootAliases(const ScanDatabase& db, const std::string& root);

// The database files to scan, in the database's order: one per real file (a symlink and its
// target are one file), those whose main file lies under the root, and with `only` given,
// those it selects. A positional file or directory selects the database files it is or
// holds; one that is or holds none (a header) selects the units that include it (found by
// preprocessing every unit under the root). Throws InputError when nothing would be scanned
// (the database is empty, no file of it lies under the root), naming a positional path that
// selects nothing, and for an entry Clang cannot run (ScanDatabase::checkEntries).
std::vector<std::string> selectFiles(const ScanDatabase& db, const FrontendOptions& options);

// One unit's facts per file, in the order of `files`: whole when parsed, split by file when
// loaded from the cache.
std::vector<facts::UnitFacts> runFrontend(const ScanDatabase& db, const rules::RuleSet& rules,
                                          const std::vector<std::string>& files,
                                          const FrontendOptions& options);

}  // namespace gridlock::frontend
