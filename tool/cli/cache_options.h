// The facts cache's flags, shared by every command that scans (scan, gate, callers, rewrite):
// where the cache lives, whether to use it, how big it may grow, and -v for why each
// translation unit missed (pipeline/facts_cache.h uses them).
#pragma once

#include "pipeline/scan_request.h"

#include <CLI/CLI.hpp>

namespace gridlock::cli {

void addCacheOptions(CLI::App& cmd, pipeline::CacheSettings& f);

}  // namespace gridlock::cli
