#include "index/path_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gridlock::index {
namespace {

// The length of the well-formed UTF-8 sequence at text[i], or 0 when it is not one
// (Unicode 15, table 3-7).
size_t sequenceAt(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong forms
    if (c == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

void appendEscape(std::string& out, unsigned char c) {
  static const char* hex = "0123456789ABCDEF";
  out += '%';
  out += hex[c >> 4];
  out += hex[c & 0xF];
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Escapes what is not UTF-8, and '%' when `percent` is set.
std::string escape(std::string_view text, bool percent) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = sequenceAt(text, i);
    if (n == 0 || (percent && text[i] == '%')) {
      appendEscape(out, static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

bool isUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t n = sequenceAt(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string jsonPath(std::string_view path) { return escape(path, true); }

std::string escapeNonUtf8(std::string_view text) { return escape(text, false); }

std::string fromJsonPath(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
        hexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string textPath(std::string_view path) {
  auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20; };
  if (std::none_of(path.begin(), path.end(), control)) return std::string(path);
  return nlohmann::json(jsonPath(path)).dump();  // as the JSON reports write it
}

std::string uriPath(std::string_view path) {
  std::string out;
  for (char ch : path) {
    unsigned char c = static_cast<unsigned char>(ch);
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep)
      out += ch;
    else
      appendEscape(out, c);
  }
  return out;
}

}  // namespace gridlock::index
