// The compression is libzstd's and zlib's own, not LLVM's: the same bytes (llvm::compression
// writes a plain zstd frame and a plain zlib stream, at the levels used here), and the Python
// build, which links no LLVM, reads and evicts the entries the full build writes.
#include "cache/packed.h"

#include "support/file_io.h"

#include <zlib.h>
#include <zstd.h>

#include <new>
#include <optional>
#include <sstream>

namespace gridlock::cache {
namespace {

// llvm::compression's default level, and the level used for `smallest`.
constexpr int kZstdLevel = 5, kZstdSmallest = 19;

std::string zstdCompress(std::string_view raw, int level) {
  // ZSTD_compress2 with no more than the level set, as llvm::compression::zstd::compress.
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (!cctx) throw std::bad_alloc();
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  size_t n = ZSTD_compress2(cctx, out.data(), out.size(), raw.data(), raw.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(n)) throw std::bad_alloc();  // only a failed allocation fails a bound buffer
  out.resize(n);
  return out;
}

// The `rawSize` bytes in a zstd frame, or nothing when damaged or of another size.
std::optional<std::string> zstdDecompress(std::string_view stored, size_t rawSize) {
  std::string out(rawSize, '\0');
  size_t n = ZSTD_decompress(out.data(), out.size(), stored.data(), stored.size());
  if (ZSTD_isError(n) || n != rawSize) return std::nullopt;
  return out;
}

// The `rawSize` bytes in a zlib stream (what LLVM built without zstd wrote), or nothing.
std::optional<std::string> zlibDecompress(std::string_view stored, size_t rawSize) {
  std::string out(rawSize, '\0');
  uLongf size = rawSize;
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                 reinterpret_cast<const Bytef*>(stored.data()), stored.size()) != Z_OK ||
      size != rawSize)
    return std::nullopt;
  return out;
}

}  // namespace

std::string pack(std::string_view raw, bool checksum, bool smallest) {
  // zstd always: the header can name zlib and "none", which are still read.
  std::string stored = zstdCompress(raw, smallest ? kZstdSmallest : kZstdLevel);
  std::ostringstream head;
  head << "zstd " << raw.size() << " " << stored.size() << " "
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
  std::optional<std::string> raw;
  if (method == "zstd")
    raw = zstdDecompress(stored, rawSize);
  else if (method == "zlib")
    raw = zlibDecompress(stored, rawSize);
  else if (method == "none")
    raw = std::string(stored);
  else {
    u.problem = "unknown compression " + method;
    return u;
  }
  if (!raw) {
    u.problem = "cannot decompress";
    return u;
  }
  u.raw = std::move(*raw);
  u.ok = true;
  return u;
}

}  // namespace gridlock::cache
