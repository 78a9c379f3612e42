#include "cache/tu_cache.h"

#include "cache/entry.h"
#include "cache/key.h"

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
  const std::string& root = settings_.root;
  if (s.starts_with(root + "/")) return s.substr(root.size() + 1).str();
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

std::optional<facts::TuFacts> TuCache::lookup(const TuRef& tu, FileView& view) {
  std::string slot = slotOf(settings_.root, tu.file, settings_.rewriteFacts);
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
  Entry& e = d.entry;
  if (e.slot != slot) {
    miss(tu, "not cached");
    return std::nullopt;
  }
  if (e.command != tu.command) {
    miss(tu, "compile command changed");
    return std::nullopt;
  }
  if (e.rulesDigest != settings_.rulesDigest) {
    miss(tu, "rule packs changed");
    return std::nullopt;
  }
  if (e.links != settings_.links) {
    miss(tu, "files linked into the root changed");
    return std::nullopt;
  }
  CheckResult c =
      check(e.deps, view, tu.source, [this](const std::string& p) { return displayPath(p); });
  if (!c.fresh) {
    miss(tu, c.reason);
    return std::nullopt;
  }
  if (c.restamp) {
    // Same contents under new stamps (a checkout, a touch): record them, so the next scan
    // trusts the stamps again instead of reading the files.
    e.deps = std::move(c.deps);
    try {
      store_.write(slot, encodeEntry(e, settings_.build));
    } catch (const std::exception& ex) {
      warn(std::string("cannot update an entry: ") + ex.what());
    }
  } else {
    store_.touch(slot);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++hits_;
  return std::move(e.facts);
}

void TuCache::store(const TuRef& tu, Deps deps, const facts::TuFacts& facts) {
  Entry e;
  e.slot = slotOf(settings_.root, tu.file, settings_.rewriteFacts);
  e.rulesDigest = settings_.rulesDigest;
  e.command = tu.command;
  e.links = settings_.links;
  e.deps = std::move(deps);
  e.facts = facts;
  try {
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
