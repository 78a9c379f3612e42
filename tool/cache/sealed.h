// An entry of the Python scan's cache behind a checksum: "gridlock-cache-entry <kind> <hash>
// <size>\n" then the payload, so that a truncated, damaged or misplaced entry is found before it
// is decoded. The marker (store.h) makes it an entry eviction counts and may remove. The
// hash is the standard library's 64-bit one (std::hash of the bytes), not MD5 as packed.h's:
// the Python program's entry is read whole on every warm scan (4 MB for megatron/core), where
// MD5 would cost a fifth of the run and this hash a twentieth; it finds damage, which is all a
// cache needs (a different gridlock build, whose hash may differ, has other entries).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gridlock::cache {

// `payload` sealed as an entry of `kind` (a word: "python-program").
std::string seal(std::string_view kind, std::string_view payload);

// The payload of a sealed entry of `kind`, or nothing with `problem` set: "no header",
// "not a <kind> entry", "truncated", "trailing bytes", "checksum mismatch".
std::optional<std::string_view> unseal(std::string_view kind, std::string_view bytes,
                                       std::string& problem);

}  // namespace gridlock::cache
