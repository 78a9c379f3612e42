// A checksummed, compressed payload behind a text header: what cache entries, blobs and shard
// facts files are made of. The header says the compression, both sizes and the MD5 of the
// stored bytes, so truncation and damage are found before anything is decoded. A blob's
// header leaves the MD5 out: its name is the digest of what it holds, checked once it is
// unpacked (entry.h), and most blobs are so small that 33 more bytes each would be a tenth of
// the cache.
#pragma once

#include <string>
#include <string_view>

namespace gridlock::cache {

// "<method> <raw size> <stored size> <md5>\n" followed by the stored bytes; without
// `checksum`, "-" instead of the MD5. `smallest`: compress harder, for bytes written once and
// read many times (a blob), at several times the time.
std::string pack(std::string_view raw, bool checksum = true, bool smallest = false);

struct Unpacked {
  bool ok = false;
  std::string problem;  // "truncated", "checksum mismatch", ...
  std::string raw;
};
// With `checksum`, a header without the MD5 is damage ("no checksum"); without it, the
// caller checks what it unpacks.
Unpacked unpack(std::string_view packed, bool checksum = true);

}  // namespace gridlock::cache
