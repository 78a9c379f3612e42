// What one translation unit's parse depended on, beyond its command line: every file it read
// (with the stamp and the digest of what was read), every file or directory it looked up and
// found without reading it, every path it looked for and did not find (a header created there
// later would shadow the one it found), and every directory it listed. The cache replays these
// checks to decide whether a parse would see the same inputs again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gridlock::cache {

// What stat says of a file: equal stamps mean unchanged contents unless the stamp is racy.
// The ctime too, as ccache and git's index check it: an edit of the same size whose mtime was
// put back (`touch -d`, a checkout tool, a build system that restores times) still moves it.
struct Stamp {
  std::int64_t size = -1;
  std::int64_t mtimeNs = 0;
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t ctimeNs = 0;  // 0 where the file system has none (an in-memory file)
  bool operator==(const Stamp&) const = default;
};

// A file whose contents the parse read.
struct ReadFile {
  std::string path;  // absolute, as the compiler spelled it
  Stamp stamp;
  std::string digest;  // MD5 of the bytes read
  // Modified so close to the parse that a later edit could keep the stamp (mtime granularity):
  // never trusted, the digest is always compared.
  bool racy = false;
};

// Paths looked for in one directory and not found, with the directory's own stamp: while the
// directory is unchanged, nothing was created in it.
struct Missing {
  std::string dir;
  bool dirExists = false;
  Stamp dirStamp;
  bool racy = false;
  std::vector<std::string> names;  // sorted
};

// A directory the compiler listed (the driver's search for installations).
struct Listing {
  std::string dir;
  std::string digest;  // MD5 of the sorted entry names and kinds
};

struct Deps {
  std::vector<ReadFile> reads;           // sorted by path
  std::vector<std::string> files;        // found (a regular file), not read; sorted
  std::vector<std::string> directories;  // found (a directory); sorted
  std::vector<Missing> missing;          // sorted by dir
  std::vector<Listing> listings;         // sorted by dir
};

}  // namespace gridlock::cache
