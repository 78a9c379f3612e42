// The digests an entry or a list blob names, as eviction reads them (evict.cpp): no LLVM, so
// that the Python build evicts the entries the full build writes.
#include "cache/entry.h"
#include "cache/entry_format.h"
#include "cache/packed.h"

namespace gridlock::cache {

std::vector<std::string> readDigests(codec::bin::Reader& r) {
  std::vector<std::string> out(r.count());
  for (auto& d : out) d = r.bytes();
  return out;
}

std::vector<std::string> listOf(std::string_view raw) {
  codec::bin::Reader r(raw, "list");
  std::vector<std::string> out = readDigests(r);
  if (!r.atEnd()) r.fail("trailing bytes");
  return out;
}

std::optional<std::string_view> afterHeader(std::string_view bytes, std::string (&lines)[2]) {
  for (auto& line : lines) {
    size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    line = std::string(bytes.substr(0, nl));
    bytes.remove_prefix(nl + 1);
  }
  return bytes;
}

std::optional<std::vector<std::string>> blobsOfEntry(std::string_view bytes) {
  std::string lines[2];
  std::optional<std::string_view> packed = afterHeader(bytes, lines);
  if (!packed || lines[0] != kEntryMagic) return std::nullopt;
  Unpacked u = unpack(*packed);
  if (!u.ok) return std::nullopt;
  try {
    codec::bin::Reader r(u.raw, "entry");
    return readDigests(r);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::vector<std::string>> digestsOfList(std::string_view bytes) {
  size_t nl = bytes.find('\n');
  if (nl == std::string_view::npos || bytes.substr(0, nl) != kBlobMagic + "list")
    return std::nullopt;
  Unpacked u = unpack(bytes.substr(nl + 1), /*checksum=*/false);
  if (!u.ok) return std::nullopt;
  try {
    return listOf(u.raw);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace gridlock::cache
