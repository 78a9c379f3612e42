#include "cache/packed.h"

#include "support/file_io.h"

#include <llvm/Support/Compression.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <sstream>

namespace gridlock::cache {
namespace {

namespace compression = llvm::compression;

// The best compression this LLVM has; the header says which was used.
std::string bestCompression() {
  if (compression::zstd::isAvailable()) return "zstd";
  if (compression::zlib::isAvailable()) return "zlib";
  return "none";
}

std::optional<compression::Format> formatOf(const std::string& name) {
  if (name == "zstd") return compression::Format::Zstd;
  if (name == "zlib") return compression::Format::Zlib;
  return std::nullopt;
}

llvm::ArrayRef<uint8_t> bytesOf(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace

std::string pack(std::string_view raw, bool checksum, bool smallest) {
  std::string method = bestCompression();
  std::string stored;
  if (auto format = formatOf(method)) {
    llvm::SmallVector<uint8_t, 0> out;
    compression::Params params(*format);
    if (smallest) params.level = *format == compression::Format::Zstd ? 19 : 9;
    compression::compress(params, bytesOf(raw), out);
    stored.assign(out.begin(), out.end());
  } else {
    stored.assign(raw);
  }
  std::ostringstream head;
  head << method << " " << raw.size() << " " << stored.size() << " "
       << (checksum ? support::md5Hex(stored) : "-") << "\n";
  return head.str() + stored;
}

Unpacked unpack(std::string_view packed, bool checksum) {
  Unpacked u;
  size_t nl = packed.find('\n');
  if (nl == std::string_view::npos) {
    u.problem = "truncated header";
    return u;
  }
  std::istringstream head{std::string(packed.substr(0, nl))};
  std::string_view stored = packed.substr(nl + 1);
  std::string method, digest;
  size_t rawSize = 0, storedSize = 0;
  if (!(head >> method >> rawSize >> storedSize >> digest)) {
    u.problem = "bad size line";
    return u;
  }
  if (stored.size() != storedSize) {
    u.problem = stored.size() < storedSize ? "truncated" : "trailing bytes";
    return u;
  }
  if (!checksum) {
    if (digest != "-") {
      u.problem = "bad size line";
      return u;
    }
  } else if (digest == "-") {
    u.problem = "no checksum";
    return u;
  } else if (support::md5Hex(stored) != digest) {
    u.problem = "checksum mismatch";
    return u;
  }
  if (auto format = formatOf(method)) {
    llvm::SmallVector<uint8_t, 0> out;
    if (llvm::Error err = compression::decompress(*format, bytesOf(stored), out, rawSize)) {
      llvm::consumeError(std::move(err));
      u.problem = "cannot decompress";
      return u;
    }
    u.raw.assign(out.begin(), out.end());
  } else if (method == "none") {
    u.raw.assign(stored);
  } else {
    u.problem = "unknown compression " + method;
    return u;
  }
  u.ok = true;
  return u;
}

}  // namespace gridlock::cache
