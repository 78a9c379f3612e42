// The facts cache as the frontend uses it, one per scan: look a translation unit up (a hit
// skips its parse), store what a parse found, count hits and misses and say why each miss
// missed. Thread-safe: the frontend's workers share it.
#pragma once

#include "cache/check.h"
#include "cache/deps.h"
#include "cache/entry.h"
#include "cache/store.h"
#include "facts/by_file.h"
#include "facts/facts.h"

#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::cache {

struct Settings {
  std::string dir;
  std::uint64_t maxBytes = std::uint64_t(1) << 30;
  std::string build;        // gridlockBuildId() and the Clang it links
  std::string rulesDigest;  // rules_codec.h digestOf()
  std::string root;         // real path of --root
  std::string links;        // key.h linksKey() of the files the database links into the root
  bool rewriteFacts = false;
};

// One translation unit, as the cache needs to name it.
struct TuRef {
  std::string file;     // as the compile database names it
  std::string source;   // its absolute real path
  std::string display;  // root-relative, for messages
  std::string command;  // key.h commandKey()
};

class TuCache {
 public:
  // Throws std::runtime_error when the directory cannot be created.
  explicit TuCache(Settings settings);

  // The facts of a fresh entry, split by file (each blob read and decoded once per scan,
  // however many units name it), or nothing (a miss, with its reason). `view` is this scan's
  // view of the file system the parse would use.
  std::optional<facts::UnitFacts> lookup(const TuRef& tu, FileView& view);
  // Stores a parse's facts: the blobs of its files that are not stored yet, then its entry. A
  // failure to write is a warning, never an error.
  void store(const TuRef& tu, Deps deps, const facts::TuFacts& facts);
  // Evicts what no longer fits; one warning line for entries of another gridlock.
  void finish();

  size_t hits() const;
  size_t misses() const;
  // (TU, reason) for every miss, sorted by TU.
  std::vector<std::pair<std::string, std::string>> missReasons() const;

  // Where warnings go (default: stderr, "gridlock: warning: cache: ...").
  void setWarningSink(std::function<void(const std::string&)> sink);

  const Store& storage() const { return store_; }

 private:
  void miss(const TuRef& tu, std::string reason);
  enum class Kind { Facts, Deps, List };
  struct LoadedBlob {
    std::shared_ptr<const facts::TuFacts> facts;           // a facts blob's
    std::shared_ptr<const Deps> deps;                      // a deps blob's
    std::shared_ptr<const std::vector<std::string>> list;  // a list blob's
    std::string problem;                                   // why none, for a miss's reason
    bool ok() const { return facts || deps || list; }
  };
  // The blob's contents, read and decoded by the first unit that asks (which warns once when
  // it is missing or damaged); the others wait for them.
  LoadedBlob loadBlob(const std::string& digest, Kind kind);
  // Fills the entry's files' digests and depsDigests from the lists it names.
  bool readLists(const TuRef& tu, Entry& e);
  // Whether a deps blob's records all hold as recorded, stamps included (nothing to restamp):
  // decided once per run and blob, since the run's FileView does not change and most blobs
  // (a directory of headers) are named by many units.
  bool depsClean(const std::string& digest, const Deps& part, FileView& view);
  // lookup()'s steps; each that fails has counted the miss and its reason.
  // The entry in `slot`, when it is this build's and the rest of its key matches the unit's.
  std::optional<Entry> readEntry(const TuRef& tu, const std::string& slot);
  // Whether the unit's dependencies hold (fills e.deps when some blob is not clean).
  std::optional<CheckResult> checkDeps(const TuRef& tu, Entry& e, FileView& view);
  // Loads the facts blobs of the entry's files.
  bool loadFacts(const TuRef& tu, const std::string& slot, Entry& e);
  // Rewrites the entry with its dependencies' new stamps; a failure is a warning.
  void restamp(const std::string& slot, Entry& e, Deps deps);
  // Writes the blobs not stored yet (or found damaged by this scan).
  void writeBlobs(const std::vector<Blob>& blobs);
  void warn(const std::string& line);
  std::string displayPath(const std::string& path) const;

  Settings settings_;
  Store store_;
  mutable std::mutex mutex_;
  size_t hits_ = 0;
  std::vector<std::pair<std::string, std::string>> reasons_;
  size_t foreign_ = 0;
  std::string foreignWhy_;
  bool wrote_ = false;
  std::map<std::string, std::shared_future<LoadedBlob>> blobs_;      // by digest, this scan's
  std::map<std::pair<std::uint64_t, std::string>, bool> depsClean_;  // by view and digest
  std::set<std::string> written_;                                    // blobs this scan wrote
  std::function<void(const std::string&)> sink_;
};

}  // namespace gridlock::cache
