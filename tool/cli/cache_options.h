// The facts cache's flags, shared by every command that scans (scan, gate, callers, rewrite):
// where the cache lives, whether to use it, how big it may grow, and -v for why each
// translation unit missed.
#pragma once

#include "cache/tu_cache.h"
#include "index/inventory.h"
#include "rules/rule_set.h"

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <string>

namespace gridlock::cli {

struct CacheFlags {
  std::string dir;  // default: .gridlock-cache in the build directory
  bool off = false;
  std::string size = "1G";
  bool verbose = false;
};

void addCacheOptions(CLI::App& cmd, CacheFlags& f);

// The cache a scan uses, or null: --no-cache, or a directory that cannot be made (a warning,
// and the scan goes on without it).
std::unique_ptr<cache::TuCache> openCache(const CacheFlags& f, const std::string& buildDir,
                                          const rules::RuleSet& rules, const std::string& root,
                                          const std::map<std::string, std::string>& links,
                                          bool rewriteFacts);

// After the frontend: evicts, and returns the counts (without a cache every TU was parsed: a
// miss). With -v, prints them and every miss's reason on stderr.
index::CacheCounts finishCache(cache::TuCache* cache, const CacheFlags& f, size_t scanned);

}  // namespace gridlock::cli
