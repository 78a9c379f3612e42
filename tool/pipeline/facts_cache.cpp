#include "pipeline/facts_cache.h"

#include "cache/key.h"
#include "rules/rules_codec.h"
#include "support/ownership.h"

#include <clang/Basic/Version.h>

#include <iostream>

namespace gridlock::pipeline {

std::unique_ptr<cache::TuCache> openCache(const CacheSettings& f, const std::string& buildDir,
                                          const rules::RuleSet& rules, const std::string& root,
                                          const std::map<std::string, std::string>& links,
                                          bool rewriteFacts) {
  if (f.off) return nullptr;
  cache::Settings s;
  s.dir = f.dir.empty() ? buildDir + "/.gridlock-cache" : f.dir;
  s.maxBytes = cache::parseSize(f.size).value_or(s.maxBytes);
  // gridlock's own build and the Clang it runs: another of either may read code otherwise.
  s.build = cache::gridlockBuildId() + " " + clang::getClangFullVersion();
  s.rulesDigest = rules::digestOf(rules);
  s.root = root;
  s.links = cache::linksKey(links);
  s.rewriteFacts = rewriteFacts;
  try {
    return std::make_unique<cache::TuCache>(std::move(s));
  } catch (const std::exception& e) {
    // Said once: the Python frontend, sharing the directory, finds the same.
    support::warnOnce(std::string("cache: ") + e.what() + "; scanning without the cache");
    return nullptr;
  }
}

index::CacheCounts finishCache(cache::TuCache* cache, const CacheSettings& f, size_t scanned) {
  index::CacheCounts c;
  if (!cache) {
    c.misses = scanned;
    return c;
  }
  cache->finish();
  c.hits = cache->hits();
  c.misses = cache->misses();
  if (f.verbose) {
    std::cerr << "gridlock: cache: " << c.hits << (c.hits == 1 ? " hit, " : " hits, ") << c.misses
              << (c.misses == 1 ? " miss" : " misses") << "\n";
    for (const auto& [tu, why] : cache->missReasons())
      std::cerr << "gridlock: cache: " << tu << ": " << why << "\n";
  }
  return c;
}

}  // namespace gridlock::pipeline
