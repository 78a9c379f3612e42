#include "cli/cache_options.h"

#include "cache/key.h"

namespace gridlock::cli {

void addCacheOptions(CLI::App& cmd, pipeline::CacheSettings& f) {
  auto* dir = cmd.add_option("--cache-dir", f.dir,
                             "Facts cache directory (default: .gridlock-cache in the build "
                             "directory)");
  auto* off = cmd.add_flag("--no-cache", f.off, "Parse every translation unit; use no cache");
  off->excludes(dir);
  cmd.add_option("--cache-size", f.size,
                 "Bound of the cache's size; the least recently used entries go first "
                 "(default: 1G)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            return cache::parseSize(s) ? "" : s + " is not a size (500M, 2G, 65536)";
          },
          "SIZE"));
  cmd.add_flag("-v,--verbose", f.verbose,
               "Say why each translation unit missed the cache, and name each rule-pack entry "
               "that matched nothing");
}

}  // namespace gridlock::cli
