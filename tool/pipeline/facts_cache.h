// The facts cache as a scan uses it (tool/cache): opened for the run's rules and root, and
// finished (evicted, counted) after the frontend.
#pragma once

#include "cache/tu_cache.h"
#include "index/inventory.h"
#include "pipeline/scan_request.h"
#include "rules/rule_set.h"

#include <map>
#include <memory>
#include <string>

namespace gridlock::pipeline {

// The cache a scan uses, or null: --no-cache, or a directory that cannot be made (a warning,
// and the scan goes on without it).
std::unique_ptr<cache::TuCache> openCache(const CacheSettings& f, const std::string& buildDir,
                                          const rules::RuleSet& rules, const std::string& root,
                                          const std::map<std::string, std::string>& links,
                                          bool rewriteFacts);

// After the frontend: evicts, and returns the counts (without a cache every TU was parsed: a
// miss). With -v, prints them and every miss's reason on stderr.
index::CacheCounts finishCache(cache::TuCache* cache, const CacheSettings& f, size_t scanned);

}  // namespace gridlock::pipeline
