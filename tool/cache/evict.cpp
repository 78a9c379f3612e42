// Store::evict (store.h): apart from the rest of the store because it reads entries and list
// blobs (entry_names.cpp), packed with zstd (packed.h); no LLVM, so both builds evict.
#include "cache/store.h"

#include "cache/entry.h"

#include "support/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <system_error>
#include <vector>

namespace gridlock::cache {
namespace fs = std::filesystem;

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
