#include "support/file_io.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MD5.h>

#include <fstream>
#include <sstream>

namespace gridlock::support {

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(ss).str();
}

std::string md5Hex(std::string_view bytes) {
  llvm::MD5 md5;
  md5.update(llvm::StringRef(bytes.data(), bytes.size()));
  llvm::MD5::MD5Result result;
  md5.final(result);
  return result.digest().str().str();
}

std::optional<std::string> fileDigest(const std::string& path) {
  std::optional<std::string> text = readFile(path);
  if (!text) return std::nullopt;
  return md5Hex(*text);
}

}  // namespace gridlock::support
