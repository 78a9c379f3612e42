// Stat before digest, for a cache keyed by whole files' bytes (the Python module facts): what
// each file's stamp (deps.h: size, mtime, ctime, inode, device) was when its bytes gave a
// key. A later run whose stat gives the same stamp, recorded long enough after the file's last
// change (not racy, as git's index treats racily clean entries), takes the key without reading
// the file; any other stamp, a racy one or a path not recorded is read and digested again.
#pragma once

#include "cache/deps.h"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gridlock::cache {

struct StampedKey {
  Stamp stamp;
  bool racy = false;  // modified within the stamp's granularity of the run that recorded it
  std::string key;
  bool operator==(const StampedKey&) const = default;
};

// Whether a file or directory with this stamp may still change without its stamp changing,
// as seen from a parse that started at `start`: its mtime or its ctime is that recent.
bool isRacy(const Stamp& s, std::chrono::system_clock::time_point start);

// A stat(2) time (st_mtim, st_ctim) in nanoseconds since the epoch, as Stamp keeps times.
std::int64_t nanoseconds(const struct timespec& t);

// The stamp of a regular file (symlinks followed), nothing for anything else or no file.
std::optional<Stamp> statFile(const std::string& path);

class StampTable {
 public:
  // Damaged bytes keep the records before the damage (a missing record costs one digest).
  static StampTable decode(std::string_view bytes);
  std::string encode() const;

  // The key recorded for `path` when `now` is the file's stamp and the record is not racy.
  const std::string* trusted(const std::string& path, const Stamp& now) const;
  const StampedKey* find(const std::string& path) const;
  // Records `key` for the bytes read at `stamp` (taken before the read), racy when the stamp
  // lies within two seconds of `start`, the moment the run began.
  void record(const std::string& path, const Stamp& stamp, std::string key,
              std::chrono::system_clock::time_point start);
  void keep(const std::string& path, const StampedKey& entry) { records_[path] = entry; }

  bool operator==(const StampTable&) const = default;
  size_t size() const { return records_.size(); }

 private:
  std::map<std::string, StampedKey> records_;  // by root-relative path
};

}  // namespace gridlock::cache
