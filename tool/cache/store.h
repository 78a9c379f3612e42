// The cache directory: one file per entry under entries/ and one per blob (the facts of one
// file, entry.h) under blobs/, each written whole beside its place and renamed over it
// (support/atomic_write.h), so a reader in another process finds the old file, the new one or
// none, never a part. Bounded in size: the least recently used entries go first (an entry's
// mtime is its last use), and a blob goes when no entry left names it, itself or in a list.
// Only files that carry gridlock's marker (entry.h) are counted and removed: the directory may
// hold files of others.
#pragma once

#include "support/mapped_file.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gridlock::cache {

// The first bytes of every entry and every blob gridlock writes, whatever their format version
// (the C++ frontend's, entry.h; the Python scan's, sealed.h): eviction removes what carries
// them and nothing else (--cache-dir may name a directory that holds other files, in blobs/
// and entries/ too).
inline constexpr std::string_view kEntryMarker = "gridlock-cache-entry ";
inline constexpr std::string_view kBlobMarker = "gridlock-cache-blob ";

class Store {
 public:
  // Creates the directory (and a CACHEDIR.TAG, so backup tools skip it, and, where it holds
  // nothing but gridlock's files, a .gitignore of `*`, so git does). Throws
  // std::runtime_error naming the directory when it cannot.
  Store(std::string dir, std::uint64_t maxBytes);

  std::string pathOf(const std::string& slot) const;
  std::optional<std::string> read(const std::string& slot) const;
  // The same, mapped instead of copied (entries are renamed over, never written in place).
  std::optional<support::MappedFile> map(const std::string& slot) const;
  // Throws support::WriteError.
  void write(const std::string& slot, const std::string& bytes) const;
  // Marks the entry used now.
  void touch(const std::string& slot) const;

  // Blobs, by digest. Throws support::WriteError.
  std::string blobPathOf(const std::string& digest) const;
  std::optional<std::string> readBlob(const std::string& digest) const;
  bool hasBlob(const std::string& digest) const;
  void writeBlob(const std::string& digest, const std::string& bytes) const;

  // Keeps the directory within its bound: when entries and blobs hold more, removes the blobs
  // no entry names, then the least recently used entries, each with the blobs only it named,
  // until they hold at most 90% of it. Removes temporaries a crashed writer left (older than
  // an hour; holding the marker, or a part of it). Files without gridlock's marker are neither
  // counted nor removed. Returns the number of entries removed. Defined in evict.cpp, in
  // gridlock_cache_evict (it reads entries, entry.h): gridlock_cache_store alone has none.
  size_t evict() const;

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::uint64_t maxBytes_;
};

}  // namespace gridlock::cache
