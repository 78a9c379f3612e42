// What entry.cpp (writing and decoding entries, with LLVM's hashing) and entry_names.cpp (the
// digests eviction reads, without LLVM) share: the headers and the digest lists' coding.
#pragma once

#include "cache/store.h"
#include "facts/binary_codec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::cache {

inline const std::string kEntryMagic = std::string(kEntryMarker) + "6";
// Followed by the blob's kind: "facts", "deps" or "list".
inline const std::string kBlobMagic = std::string(kBlobMarker) + "2 ";

std::vector<std::string> readDigests(codec::bin::Reader& r);
// A list blob's digests from its raw bytes; throws codec::Error on damaged ones.
std::vector<std::string> listOf(std::string_view raw);
// The header lines of an entry, and the packed rest; nothing when there are not two lines.
std::optional<std::string_view> afterHeader(std::string_view bytes, std::string (&lines)[2]);

}  // namespace gridlock::cache
