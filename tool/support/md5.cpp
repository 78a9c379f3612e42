// md5Hex (file_io.h): MD5 (RFC 1321) by OpenSSL's libcrypto rather than LLVM's llvm::MD5 (the same
// digests), so that what uses only support, such as the Python scan, need not load libLLVM.
#include <openssl/evp.h>

#include <stdexcept>

#include "support/file_io.h"

namespace gridlock::support {

std::string md5Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_md5(), nullptr) != 1 || size != 16)
    throw std::runtime_error("md5: OpenSSL's EVP_Digest failed");
  static const char hex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (unsigned i = 0; i < 16; ++i) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  return out;
}

}  // namespace gridlock::support
