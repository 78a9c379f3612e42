#include "cache/sealed.h"

#include "cache/store.h"

#include <charconv>
#include <cstdint>
#include <functional>

namespace gridlock::cache {
namespace {

std::string hashOf(std::string_view payload) {
  char buf[17];
  auto [end, ec] = std::to_chars(buf, buf + 16, std::hash<std::string_view>{}(payload), 16);
  return std::string(buf, end);
}

}  // namespace

std::string seal(std::string_view kind, std::string_view payload) {
  std::string out(kEntryMarker);
  out += kind;
  out += ' ' + hashOf(payload) + ' ' + std::to_string(payload.size()) + '\n';
  out += payload;
  return out;
}

std::optional<std::string_view> unseal(std::string_view kind, std::string_view bytes,
                                       std::string& problem) {
  if (!bytes.starts_with(kEntryMarker)) {
    problem = "no header";
    return std::nullopt;
  }
  bytes.remove_prefix(kEntryMarker.size());
  size_t nl = bytes.find('\n');
  size_t a = bytes.find(' '), b = a == std::string_view::npos ? a : bytes.find(' ', a + 1);
  if (nl == std::string_view::npos || b == std::string_view::npos || b > nl) {
    problem = "no header";
    return std::nullopt;
  }
  if (bytes.substr(0, a) != kind) {
    problem = "not a " + std::string(kind) + " entry";
    return std::nullopt;
  }
  std::uint64_t size = 0;
  auto [end, ec] = std::from_chars(bytes.data() + b + 1, bytes.data() + nl, size);
  if (ec != std::errc() || end != bytes.data() + nl) {
    problem = "no header";
    return std::nullopt;
  }
  std::string_view payload = bytes.substr(nl + 1);
  if (payload.size() != size) {
    problem = payload.size() < size ? "truncated" : "trailing bytes";
    return std::nullopt;
  }
  if (bytes.substr(a + 1, b - a - 1) != hashOf(payload)) {
    problem = "checksum mismatch";
    return std::nullopt;
  }
  return payload;
}

}  // namespace gridlock::cache
