// md5Hex (file_io.h): MD5 as RFC 1321 defines it, here rather than LLVM's (llvm::MD5 gives the
// same digests) so that what uses only support, such as the Python scan, need not load libLLVM.
#include "support/file_io.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace gridlock::support {
namespace {

class Md5 {
 public:
  void update(const unsigned char* data, size_t size) {
    size_t used = static_cast<size_t>(bytes_ % 64);
    bytes_ += size;
    if (used) {
      size_t take = std::min(size, 64 - used);
      std::memcpy(buffer_ + used, data, take);
      data += take;
      size -= take;
      if (used + take < 64) return;
      block(buffer_);
    }
    for (; size >= 64; data += 64, size -= 64) block(data);
    std::memcpy(buffer_, data, size);
  }

  void final(unsigned char out[16]) {
    std::uint64_t bits = bytes_ * 8;
    static const unsigned char pad[64] = {0x80};
    size_t used = static_cast<size_t>(bytes_ % 64);
    update(pad, used < 56 ? 56 - used : 120 - used);
    unsigned char length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<unsigned char>(bits >> (8 * i));
    update(length, 8);
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 4; ++k) out[4 * i + k] = static_cast<unsigned char>(state_[i] >> (8 * k));
  }

 private:
  static std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

  void block(const unsigned char* p) {
    std::uint32_t x[16];
    for (int i = 0; i < 16; ++i)
      x[i] = std::uint32_t(p[4 * i]) | std::uint32_t(p[4 * i + 1]) << 8 |
             std::uint32_t(p[4 * i + 2]) << 16 | std::uint32_t(p[4 * i + 3]) << 24;
    // The per-step shifts and the sines' constants of RFC 1321, section 3.4.
    static const int shift[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                  5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    static const std::uint32_t sine[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
        0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
        0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
        0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
        0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
        0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
        0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
        0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
        0xeb86d391};
    std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    for (int i = 0; i < 64; ++i) {
      std::uint32_t f;
      int g;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      std::uint32_t t = d;
      d = c;
      c = b;
      b = b + rotl(a + f + sine[i] + x[g], shift[i]);
      a = t;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
  }

  std::uint32_t state_[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  std::uint64_t bytes_ = 0;
  unsigned char buffer_[64] = {};
};

}  // namespace

std::string md5Hex(std::string_view bytes) {
  Md5 md5;
  md5.update(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  unsigned char digest[16];
  md5.final(digest);
  static const char hex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  return out;
}

}  // namespace gridlock::support
