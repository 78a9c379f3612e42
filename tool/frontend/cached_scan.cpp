#include "frontend/cached_scan.h"

#include "cache/key.h"
#include "frontend/file_places.h"

namespace gridlock::frontend {
namespace {

// A TU as the cache names it: its commands as the frontend runs them (after nvcc translation
// and --extra-arg), its source, its name in messages.
cache::TuRef cacheRef(const ScanDatabase& db, const std::string& file,
                      const FrontendOptions& options) {
  cache::TuRef tu;
  tu.file = file;
  tu.source = realPath(file);
  rootRelative(options.root, &options.aliases, tu.source, tu.display);
  std::vector<cache::Command> commands;
  for (const auto& c : db.getCompileCommands(file))
    commands.push_back({c.Directory, c.Filename, c.CommandLine});
  tu.command = cache::commandKey(commands);
  return tu;
}

}  // namespace

facts::UnitFacts scanCached(const ScanDatabase& db, const std::string& file,
                            const FrontendOptions& options, cache::FileView& view,
                            const std::function<facts::TuFacts(cache::Recorder*)>& parse) {
  cache::TuRef tu = cacheRef(db, file, options);
  if (std::optional<facts::UnitFacts> hit = options.cache->lookup(tu, view)) {
    hit->tu.notes = db.notes(file);  // from the translation of the command as it is now
    return std::move(*hit);
  }
  cache::Recorder recorder;
  facts::TuFacts out = parse(&recorder);
  // Edited text in memory (the rewriter's check) is no state of the disk to remember, and a
  // failed parse is not kept.
  if (options.overlay.empty() && !out.parseError) options.cache->store(tu, recorder.finish(), out);
  return {std::move(out), nullptr};
}

}  // namespace gridlock::frontend
