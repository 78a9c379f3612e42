// Runs the read collector over translation units of a compile database, in parallel.
#pragma once

#include "cache/tu_cache.h"
#include "facts/facts.h"
#include "frontend/compile_db.h"
#include "rules/rule_set.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::frontend {

struct FrontendOptions {
  std::string root;            // real path of --root
  std::vector<std::string> only;  // positional paths: restrict to these files or directories
  unsigned jobs = 0;           // 0: all cores
  bool progress = false;       // a progress line on stderr
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

// The database files to scan: those in `only` (when given) whose main file lies under the
// root. Throws InputError when a positional path matches nothing.
std::vector<std::string> selectFiles(const ScanDatabase& db, const FrontendOptions& options);

// One TuFacts per file, in the order of `files`.
std::vector<facts::TuFacts> runFrontend(const ScanDatabase& db, const rules::RuleSet& rules,
                                        const std::vector<std::string>& files,
                                        const FrontendOptions& options);

}  // namespace gridlock::frontend
