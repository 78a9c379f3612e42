// What names a cache entry and what it must match. An entry's slot is one translation unit of
// one root in one kind of scan (with or without the rewriter's facts); inside, the entry
// records the rest of its key (gridlock's build, the rule packs' digest, the command line)
// and its dependencies, so a miss can say which of them changed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::cache {

// This gridlock binary: its GNU build id (a digest of the linked code, the same for every
// copy of one build, so a CI cache survives reinstalling it), else the MD5 of the executable.
std::string gridlockBuildId();

// The slot of a translation unit: `file` as the compile database names it.
std::string slotOf(const std::string& root, const std::string& file, bool rewriteFacts);

// One compile command of a translation unit as the frontend runs it.
struct Command {
  std::string directory;
  std::string file;
  std::vector<std::string> args;
};

// A canonical form (bytes, not always text) of all the commands a TU is parsed with (a TU the
// database lists twice is parsed twice).
std::string commandKey(const std::vector<Command>& commands);

// A canonical form (bytes) of the files a compile database links into the root from outside (real
// path -> root-relative name, frontend::RootAliases): they name files in every unit's facts.
std::string linksKey(const std::map<std::string, std::string>& links);

// A size as --cache-size takes it: "500M", "2G", "64K" (powers of 1024) or bytes; nothing when
// `text` is not a size.
std::optional<std::uint64_t> parseSize(const std::string& text);

}  // namespace gridlock::cache
