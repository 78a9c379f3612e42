#include "cache/store.h"

#include "cache/entry.h"

#include "support/atomic_write.h"
#include "support/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace gridlock::cache {
namespace {

namespace fs = std::filesystem;

// Test hooks, from the environment: a crash point and a barrier between writing an entry's
// temporary and renaming it into place (tests/cache/concurrency_test.cpp).
void beforeRename(const std::string& tmp) {
  if (std::getenv("GRIDLOCK_TEST_CACHE_CRASH_BEFORE_RENAME")) ::_exit(86);
  if (const char* fifo = std::getenv("GRIDLOCK_TEST_CACHE_BARRIER")) {
    // Once per process: say where we are, then wait until the test lets us go on.
    static bool done = false;
    if (done) return;
    done = true;
    support::writeFileAtomic(std::string(fifo) + ".at", tmp);
    int fd = ::open(fifo, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      char c;
      while (::read(fd, &c, 1) < 0 && errno == EINTR) {
      }
      ::close(fd);
    }
  }
}

}  // namespace

Store::Store(std::string dir, std::uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {
  std::error_code ec;
  fs::create_directories(fs::path(dir_) / "entries", ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create the cache directory: " + ec.message());
  std::string tag = dir_ + "/CACHEDIR.TAG";
  if (!fs::exists(tag, ec)) {
    try {
      support::writeFileAtomic(
          tag,
          "Signature: 8a477f597d28d172789f06886806bc55\n"
          "# This file marks a cache directory of gridlock (the facts cache).\n");
    } catch (const std::exception&) {
      // Only a courtesy to backup tools.
    }
  }
}

std::string Store::pathOf(const std::string& slot) const {
  return dir_ + "/entries/" + slot.substr(0, 2) + "/" + slot;
}

std::optional<std::string> Store::read(const std::string& slot) const {
  return support::readFile(pathOf(slot));
}

void Store::write(const std::string& slot, const std::string& bytes) const {
  std::string path = pathOf(slot);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  bool hooks = std::getenv("GRIDLOCK_TEST_CACHE_CRASH_BEFORE_RENAME") ||
               std::getenv("GRIDLOCK_TEST_CACHE_BARRIER");
  if (hooks)
    support::writeFileAtomic(path, bytes, beforeRename);
  else
    support::writeFileAtomic(path, bytes);
}

void Store::touch(const std::string& slot) const {
  // Now, for both times; a failure only makes the entry look older.
  ::utimensat(AT_FDCWD, pathOf(slot).c_str(), nullptr, 0);
}

std::string Store::blobPathOf(const std::string& digest) const {
  return dir_ + "/blobs/" + digest.substr(0, 2) + "/" + digest;
}

std::optional<std::string> Store::readBlob(const std::string& digest) const {
  return support::readFile(blobPathOf(digest));
}

bool Store::hasBlob(const std::string& digest) const {
  struct stat st;
  return ::stat(blobPathOf(digest).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void Store::writeBlob(const std::string& digest, const std::string& bytes) const {
  std::string path = blobPathOf(digest);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  support::writeFileAtomic(path, bytes);
}

namespace {

struct Item {
  fs::path path;
  std::uint64_t size;
  fs::file_time_type used;
};

// Whether the file at `path` begins with `marker`; or, when `partial`, with a part of it (a
// temporary a writer was killed while filling).
bool carries(const fs::path& path, std::string_view marker, bool partial) {
  std::string head(marker.size(), '\0');
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  if (n < 0) return false;
  head.resize(static_cast<size_t>(n));
  return head == marker || (partial && marker.starts_with(head));
}

// The files under `dir` that gridlock wrote (they begin with `marker`; every other file is left
// alone and not counted), temporaries a crashed writer left an hour ago removed (younger ones
// left alone), and their total size.
std::vector<Item> filesUnder(const fs::path& dir, std::string_view marker, std::uint64_t& total) {
  std::vector<Item> items;
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    std::uint64_t size = it->file_size(ec);
    fs::file_time_type used = it->last_write_time(ec);
    if (ec) {
      ec.clear();
      continue;
    }
    bool temporary = it->path().filename().string().find(".gridlock-tmp.") != std::string::npos;
    if (!carries(it->path(), marker, temporary)) continue;
    if (temporary) {
      if (now - used > std::chrono::hours(1)) fs::remove(it->path(), ec);
      ec.clear();
      continue;
    }
    items.push_back({it->path(), size, used});
    total += size;
  }
  return items;
}

}  // namespace

size_t Store::evict() const {
  std::uint64_t total = 0;
  std::vector<Item> entries = filesUnder(fs::path(dir_) / "entries", kEntryMarker, total);
  std::vector<Item> blobFiles = filesUnder(fs::path(dir_) / "blobs", kBlobMarker, total);
  if (total <= maxBytes_) return 0;
  std::error_code ec;
  auto remove = [&](const fs::path& p, std::uint64_t size) {
    bool gone = fs::remove(p, ec);
    ec.clear();
    if (gone) total -= size;
    return gone;
  };
  // How many entries name each blob, through the lists they name too (an entry that cannot
  // be read names none).
  std::map<std::string, std::pair<size_t, const Item*>> blobs;  // digest -> (names, file)
  for (const auto& b : blobFiles) blobs[b.path.filename().string()] = {0, &b};
  std::map<std::string, std::vector<std::string>> lists;  // read once each
  auto listed = [&](const std::string& digest) -> const std::vector<std::string>& {
    auto [it, fresh] = lists.emplace(digest, std::vector<std::string>());
    if (fresh)
      if (std::optional<std::string> bytes = readBlob(digest))
        if (auto digests = digestsOfList(*bytes)) it->second = std::move(*digests);
    return it->second;
  };
  std::vector<std::vector<std::string>> named(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    std::optional<std::string> bytes = support::readFile(entries[i].path.string());
    if (!bytes) continue;
    if (auto digests = blobsOfEntry(*bytes)) named[i] = std::move(*digests);
    for (size_t k = 0, n = named[i].size(); k < n; ++k) {
      const std::vector<std::string>& more = listed(named[i][k]);
      named[i].insert(named[i].end(), more.begin(), more.end());
    }
    for (const auto& d : named[i]) ++blobs[d].first;
  }
  for (auto& [digest, b] : blobs)
    if (b.first == 0 && b.second) remove(b.second->path, b.second->size);
  std::vector<size_t> order(entries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return entries[a].used < entries[b].used; });
  size_t removed = 0;
  std::uint64_t goal = maxBytes_ / 10 * 9;
  for (size_t i : order) {
    if (total <= goal) break;
    if (!remove(entries[i].path, entries[i].size)) continue;
    ++removed;
    for (const auto& d : named[i]) {
      auto& [names, file] = blobs[d];
      if (--names == 0 && file) remove(file->path, file->size);
    }
  }
  return removed;
}

}  // namespace gridlock::cache
