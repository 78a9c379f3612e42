// A checksummed, compressed payload behind a text header: what cache entries and shard facts
// files are made of. The header says the compression, both sizes and the MD5 of the stored
// bytes, so truncation and damage are found before anything is decoded.
#pragma once

#include <string>
#include <string_view>

namespace gridlock::cache {

// "<method> <raw size> <stored size> <md5>\n" followed by the stored bytes.
std::string pack(std::string_view raw);

struct Unpacked {
  bool ok = false;
  std::string problem;  // "truncated", "checksum mismatch", ...
  std::string raw;
};
Unpacked unpack(std::string_view packed);

}  // namespace gridlock::cache
