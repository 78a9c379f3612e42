// Packed payloads (cache/packed.h) are compressed with libzstd and zlib directly, so that the
// Python build, which links no LLVM, reads the entries the full build writes. The bytes stay
// LLVM's: llvm::compression (what gridlock used before) reads what pack() writes, pack() writes
// the very bytes it would, and unpack() reads every format a header can name, including two
// payloads a gridlock on llvm::compression wrote (data/llvm_*.packed).
#include "cache/packed.h"
#include "support/file_io.h"
#include "support/run_command.h"

#include <llvm/Support/Compression.h>
#include <llvm/Support/Error.h>

#include <gtest/gtest.h>

#include <string>

namespace gridlock::test {
namespace {

namespace compression = llvm::compression;

// What the samples in data/ hold: 40 lines, 1670 bytes (10 of 41 bytes, 30 of 42).
std::string sampleText() {
  std::string raw;
  for (int i = 0; i < 40; ++i)
    raw += "get_tensor_model_parallel_group() read " + std::to_string(i) + "\n";
  return raw;
}

llvm::ArrayRef<uint8_t> bytesOf(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// `raw` compressed by llvm::compression in `format` at `level`, behind pack()'s header.
std::string llvmPacked(std::string_view raw, compression::Format format, int level, bool checksum) {
  llvm::SmallVector<uint8_t, 0> out;
  compression::Params params(format);
  params.level = level;
  compression::compress(params, bytesOf(raw), out);
  std::string stored(out.begin(), out.end());
  return std::string(format == compression::Format::Zstd ? "zstd " : "zlib ") +
         std::to_string(raw.size()) + " " + std::to_string(stored.size()) + " " +
         (checksum ? support::md5Hex(stored) : "-") + "\n" + stored;
}

TEST(Packed, WritesTheBytesLlvmsZstdWrites) {
  std::string raw = sampleText();
  // LLVM's default zstd level (5), and 19 for `smallest`.
  EXPECT_EQ(cache::pack(raw), llvmPacked(raw, compression::Format::Zstd, 5, true));
  EXPECT_EQ(cache::pack(raw, false, true), llvmPacked(raw, compression::Format::Zstd, 19, false));
  EXPECT_EQ(cache::pack("", false), llvmPacked("", compression::Format::Zstd, 5, false));
}

TEST(Packed, LlvmReadsWhatItWrites) {
  std::string raw = sampleText() + sampleText();
  std::string packed = cache::pack(raw);
  size_t nl = packed.find('\n');
  ASSERT_EQ(packed.substr(0, 5), "zstd ");
  llvm::SmallVector<uint8_t, 0> out;
  llvm::Error err = compression::decompress(
      compression::Format::Zstd, bytesOf(std::string_view(packed).substr(nl + 1)), out, raw.size());
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(std::string(out.begin(), out.end()), raw);
}

TEST(Packed, ReadsEveryFormatTheHeaderNames) {
  std::string raw = sampleText();
  for (int level : {1, 6, 9}) {
    cache::Unpacked z = cache::unpack(llvmPacked(raw, compression::Format::Zlib, level, true));
    EXPECT_TRUE(z.ok) << z.problem;
    EXPECT_EQ(z.raw, raw);
  }
  cache::Unpacked zstd = cache::unpack(llvmPacked(raw, compression::Format::Zstd, 3, false), false);
  EXPECT_TRUE(zstd.ok) << zstd.problem;
  EXPECT_EQ(zstd.raw, raw);
  cache::Unpacked none = cache::unpack("none 5 5 -\nhello", false);
  EXPECT_TRUE(none.ok) << none.problem;
  EXPECT_EQ(none.raw, "hello");
  cache::Unpacked lz4 = cache::unpack("lz4 5 5 -\nhello", false);
  EXPECT_FALSE(lz4.ok);
  EXPECT_EQ(lz4.problem, "unknown compression lz4");
}

TEST(Packed, ReadsWhatAGridlockOnLlvmsCompressionWrote) {
  const std::string dir = std::string(GRIDLOCK_SOURCE_DIR) + "/tests/cache/data/";
  cache::Unpacked entry = cache::unpack(readFile(dir + "llvm_checksummed.packed"));
  EXPECT_TRUE(entry.ok) << entry.problem;
  EXPECT_EQ(entry.raw, sampleText());
  cache::Unpacked blob = cache::unpack(readFile(dir + "llvm_smallest.packed"), false);
  EXPECT_TRUE(blob.ok) << blob.problem;
  EXPECT_EQ(blob.raw, sampleText());
}

// A frame cut short, or that holds other than the size the header says, is no payload.
TEST(Packed, AFrameThatDoesNotGiveTheSizeIsDamage) {
  std::string raw = sampleText();
  std::string packed = cache::pack(raw, false);
  size_t nl = packed.find('\n');
  std::string stored = packed.substr(nl + 1);
  std::string sizes = " " + std::to_string(stored.size()) + " -\n";
  for (size_t claimed : {raw.size() - 1, raw.size() + 1}) {
    cache::Unpacked u = cache::unpack("zstd " + std::to_string(claimed) + sizes + stored, false);
    EXPECT_FALSE(u.ok) << claimed;
    EXPECT_EQ(u.problem, "cannot decompress");
  }
  // Cut short (the header's stored size cut with it): the frame is incomplete.
  std::string cut = stored.substr(0, stored.size() - 4);
  cache::Unpacked u = cache::unpack(
      "zstd " + std::to_string(raw.size()) + " " + std::to_string(cut.size()) + " -\n" + cut,
      false);
  EXPECT_FALSE(u.ok);
  EXPECT_EQ(u.problem, "cannot decompress");
  cache::Unpacked zlib =
      cache::unpack("zlib " + std::to_string(raw.size()) + sizes + stored, false);
  EXPECT_FALSE(zlib.ok);
  EXPECT_EQ(zlib.problem, "cannot decompress");
}

}  // namespace
}  // namespace gridlock::test
