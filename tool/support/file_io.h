// Reading files and naming their contents: the one whole-file read and the one digest every
// part uses, so "the same file" means the same thing to the scan, the rewrite and the cache.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gridlock::support {

// The whole file, byte for byte; nothing when it cannot be read.
std::optional<std::string> readFile(const std::string& path);

// MD5 of `bytes`, as 32 lowercase hex digits.
std::string md5Hex(std::string_view bytes);

// MD5 of the file's contents; nothing when it cannot be read.
std::optional<std::string> fileDigest(const std::string& path);

}  // namespace gridlock::support
