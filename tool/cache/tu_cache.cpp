#include "cache/tu_cache.h"

#include "cache/entry.h"
#include "cache/key.h"
#include "support/atomic_write.h"

#include <llvm/Support/Path.h>

#include <algorithm>
#include <iostream>

namespace gridlock::cache {

TuCache::TuCache(Settings settings)
    : settings_(std::move(settings)), store_(settings_.dir, settings_.maxBytes) {
  sink_ = [](const std::string& line) { std::cerr << line << "\n" << std::flush; };
}

void TuCache::setWarningSink(std::function<void(const std::string&)> sink) {
  sink_ = std::move(sink);
}

std::string TuCache::displayPath(const std::string& path) const {
  llvm::SmallString<256> p(path);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  llvm::StringRef s = p;
  const std::string prefix = settings_.root == "/" ? "/" : settings_.root + "/";
  if (s.starts_with(prefix)) return s.substr(prefix.size()).str();
  return s.str();
}

void TuCache::warn(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_("gridlock: warning: cache: " + line);
}

void TuCache::miss(const TuRef& tu, std::string reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  reasons_.emplace_back(tu.display, std::move(reason));
}

TuCache::LoadedBlob TuCache::loadBlob(const std::string& digest, Kind kind) {
  std::promise<LoadedBlob> promise;
  std::shared_future<LoadedBlob> loading;
  bool mine = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blobs_.find(digest);
    if (it == blobs_.end()) {
      it = blobs_.emplace(digest, promise.get_future().share()).first;
      mine = true;
    }
    loading = it->second;
  }
  if (!mine) return loading.get();
  LoadedBlob b;
  std::optional<std::string> bytes = store_.readBlob(digest);
  if (!bytes) {
    b.problem = "blob " + digest + " missing";
    warn("blob " + store_.blobPathOf(digest) +
         " is missing; the files that use it are scanned again");
  } else {
    std::string problem;
    if (kind == Kind::Deps) {
      DecodedDeps d = decodeDepsBlob(*bytes, settings_.build, digest);
      b.deps = std::move(d.deps);
      problem = std::move(d.problem);
    } else if (kind == Kind::List) {
      DecodedList d = decodeListBlob(*bytes, settings_.build, digest);
      b.list = std::move(d.digests);
      problem = std::move(d.problem);
    } else {
      DecodedBlob d = decodeBlob(*bytes, settings_.build, digest);
      b.facts = std::move(d.facts);
      problem = std::move(d.problem);
    }
    if (!b.ok()) {
      b.problem = "blob " + digest + " corrupt (" + problem + ")";
      warn("blob " + store_.blobPathOf(digest) + " is corrupt (" + problem +
           "); the files that use it are scanned again");
    }
  }
  promise.set_value(b);
  return b;
}

std::optional<Entry> TuCache::readEntry(const TuRef& tu, const std::string& slot) {
  std::optional<std::string> bytes = store_.read(slot);
  if (!bytes) {
    miss(tu, "not cached");
    return std::nullopt;
  }
  Decoded d = decodeEntry(*bytes, settings_.build);
  if (d.status == Decoded::Status::Foreign) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++foreign_;
    foreignWhy_ = d.problem;
    reasons_.emplace_back(tu.display, "entry from another gridlock (" + d.problem + ")");
    return std::nullopt;
  }
  if (d.status == Decoded::Status::Corrupt) {
    warn(tu.display + ": entry " + store_.pathOf(slot) + " is corrupt (" + d.problem +
         "); scanning the file again");
    miss(tu, "entry corrupt (" + d.problem + ")");
    return std::nullopt;
  }
  // The rest of the key: a slot holds one entry, whichever unit wrote it last.
  const Entry& e = d.entry;
  const char* why = e.slot != slot                           ? "not cached"
                    : e.command != tu.command                ? "compile command changed"
                    : e.rulesDigest != settings_.rulesDigest ? "rule packs changed"
                    : e.links != settings_.links             ? "files linked into the root changed"
                                                             : nullptr;
  if (why) {
    miss(tu, why);
    return std::nullopt;
  }
  return std::move(d.entry);
}

bool TuCache::readLists(const TuRef& tu, Entry& e) {
  auto each = [&](const std::vector<std::string>& lists, const auto& add) {
    for (const auto& digest : lists) {
      LoadedBlob b = loadBlob(digest, Kind::List);
      if (!b.list) {
        miss(tu, b.problem);
        return false;
      }
      for (const auto& d : *b.list) add(d);
    }
    return true;
  };
  return each(e.factsLists,
              [&](const std::string& d) { e.byFile.files.push_back({d, nullptr}); }) &&
         each(e.depsLists, [&](const std::string& d) { e.depsDigests.push_back(d); });
}

std::optional<CheckResult> TuCache::checkDeps(const TuRef& tu, Entry& e, FileView& view) {
  // Its dependencies, in blobs by directory.
  std::vector<std::shared_ptr<const Deps>> parts;
  for (const auto& digest : e.depsDigests) {
    LoadedBlob b = loadBlob(digest, Kind::Deps);
    if (!b.deps) {
      miss(tu, b.problem);
      return std::nullopt;
    }
    parts.push_back(std::move(b.deps));
  }
  // Every blob clean: fresh, nothing to restamp. Otherwise the whole check, for the reason
  // (the unit's source named as such) and the new stamps.
  CheckResult c;
  c.fresh = true;
  for (size_t i = 0; i < parts.size() && c.fresh; ++i)
    c.fresh = depsClean(e.depsDigests[i], *parts[i], view);
  if (!c.fresh) {
    e.deps = joinDeps(parts);
    c = check(e.deps, view, tu.source, [this](const std::string& p) { return displayPath(p); });
  }
  if (!c.fresh) {
    miss(tu, c.reason);
    return std::nullopt;
  }
  return c;
}

bool TuCache::loadFacts(const TuRef& tu, const std::string& slot, Entry& e) {
  // A blob missing or damaged is a miss (parsed again, and stored again), never facts.
  for (auto& f : e.byFile.files) {
    LoadedBlob b = loadBlob(f.digest, Kind::Facts);
    if (!b.facts) {
      miss(tu, b.problem);
      return false;
    }
    f.facts = std::move(b.facts);
  }
  if (std::string problem = facts::checkRuns(e.byFile); !problem.empty()) {
    warn(tu.display + ": entry " + store_.pathOf(slot) + " is corrupt (" + problem +
         "); scanning the file again");
    miss(tu, "entry corrupt (" + problem + ")");
    return false;
  }
  return true;
}

void TuCache::restamp(const std::string& slot, Entry& e, Deps deps) {
  e.deps = std::move(deps);
  try {
    std::vector<Blob> depsParts = depsBlobs(e.deps, settings_.build);
    writeBlobs(depsParts);
    e.depsDigests.clear();
    for (const auto& b : depsParts) e.depsDigests.push_back(b.digest);
    writeBlobs(nameBlobs(e, settings_.build));
    store_.write(slot, encodeEntry(e, settings_.build));
  } catch (const std::exception& ex) {
    warn(std::string("cannot update an entry: ") + ex.what());
  }
}

std::optional<facts::UnitFacts> TuCache::lookup(const TuRef& tu, FileView& view) {
  std::string slot = slotOf(settings_.root, tu.file, settings_.rewriteFacts);
  std::optional<Entry> e = readEntry(tu, slot);
  if (!e || !readLists(tu, *e)) return std::nullopt;
  std::optional<CheckResult> c = checkDeps(tu, *e, view);
  if (!c || !loadFacts(tu, slot, *e)) return std::nullopt;
  // Same contents under new stamps (a checkout, a touch): record them, so the next scan
  // trusts the stamps again instead of reading the files.
  if (c->restamp)
    restamp(slot, *e, std::move(c->deps));
  else
    store_.touch(slot);
  std::lock_guard<std::mutex> lock(mutex_);
  ++hits_;
  facts::UnitFacts out;
  out.tu = std::move(e->facts);
  out.byFile = std::make_shared<const facts::ByFile>(std::move(e->byFile));
  return out;
}

bool TuCache::depsClean(const std::string& digest, const Deps& part, FileView& view) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = depsClean_.find({view.id(), digest}); it != depsClean_.end()) return it->second;
  }
  // Two threads may check one blob at once: both get the same answer from the same view.
  CheckResult c = check(part, view, "", [](const std::string& p) { return p; });
  const bool clean = c.fresh && !c.restamp;
  std::lock_guard<std::mutex> lock(mutex_);
  depsClean_[{view.id(), digest}] = clean;
  return clean;
}

void TuCache::writeBlobs(const std::vector<Blob>& blobs) {
  for (const auto& blob : blobs) {
    bool damaged;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = blobs_.find(blob.digest);
      damaged = it != blobs_.end() &&
                it->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
                !it->second.get().ok();
    }
    if (!damaged && store_.hasBlob(blob.digest)) continue;
    {
      // One writer per blob in this scan: two threads would share the temporary's name.
      std::lock_guard<std::mutex> lock(mutex_);
      if (!written_.insert(blob.digest).second) continue;
    }
    try {
      store_.writeBlob(blob.digest, blob.bytes());
    } catch (const support::WriteError&) {
      // Another writer (a thread that found the same damage, another process) put the same
      // bytes there first: a blob's name is its contents' digest.
      if (damaged || !store_.hasBlob(blob.digest)) throw;
    }
  }
}

void TuCache::store(const TuRef& tu, Deps deps, const facts::TuFacts& facts) {
  Entry e;
  e.slot = slotOf(settings_.root, tu.file, settings_.rewriteFacts);
  e.rulesDigest = settings_.rulesDigest;
  e.command = tu.command;
  e.links = settings_.links;
  e.deps = std::move(deps);
  e.facts = facts;
  e.byFile = facts::splitByFile(e.facts);
  try {
    // The blobs before the entry that names them: a reader never finds an entry whose blobs
    // were not written yet. A blob already stored is left as it is, unless this scan found it
    // damaged.
    std::vector<Blob> blobs = depsBlobs(e.deps, settings_.build);
    for (const auto& b : blobs) e.depsDigests.push_back(b.digest);
    for (auto& f : e.byFile.files) {
      blobs.push_back(encodeBlob(*f.facts, settings_.build));
      f.digest = blobs.back().digest;
    }
    writeBlobs(blobs);
    writeBlobs(nameBlobs(e, settings_.build));  // the lists after the blobs they name
    store_.write(e.slot, encodeEntry(e, settings_.build));
    std::lock_guard<std::mutex> lock(mutex_);
    wrote_ = true;
  } catch (const std::exception& ex) {
    warn(std::string("cannot store an entry: ") + ex.what());
  }
}

void TuCache::finish() {
  size_t foreign;
  std::string why;
  bool wrote;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    foreign = foreign_;
    why = foreignWhy_;
    wrote = wrote_;
  }
  if (foreign)
    warn(std::to_string(foreign) + " entr" + (foreign == 1 ? "y" : "ies") +
         " came from another gridlock (" + why + "); their files are scanned again");
  if (wrote) store_.evict();
}

size_t TuCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

size_t TuCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reasons_.size();
}

std::vector<std::pair<std::string, std::string>> TuCache::missReasons() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto out = reasons_;
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gridlock::cache
