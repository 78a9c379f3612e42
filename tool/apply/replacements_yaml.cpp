#include "apply/replacements_yaml.h"

#include "apply/journal.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace gridlock::apply {
namespace {

enum class Quoting { None, Single, Double };

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAsciiAlnum(unsigned char c) {
  return isDigit(static_cast<char>(c)) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Whether a plain scalar would read as a number (YAML 1.2's core schema, as LLVM tests it):
// .nan, [-+].inf, 0o17, 0x1F, [-+](.5 | 5 | 5. | 5.5)([eE][-+]?5)?.
bool isNumber(std::string_view s) {
  if (s.empty() || s == "+" || s == "-") return false;
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return true;
  std::string_view t = s.front() == '+' || s.front() == '-' ? s.substr(1) : s;
  if (t == ".inf" || t == ".Inf" || t == ".INF") return true;
  if (s.starts_with("0o")) return s.size() > 2 && s.find_first_not_of("01234567", 2) == s.npos;
  if (s.starts_with("0x"))
    return s.size() > 2 && s.find_first_not_of("0123456789abcdefABCDEF", 2) == s.npos;
  size_t i = 0;
  auto digits = [&] {
    size_t from = i;
    while (i < t.size() && isDigit(t[i])) ++i;
    return i - from;
  };
  size_t whole = digits(), fraction = 0;
  if (i < t.size() && t[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (whole == 0 && fraction == 0) return false;
  if (i == t.size()) return true;
  if (t[i] != 'e' && t[i] != 'E') return false;
  ++i;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  return digits() > 0 && i == t.size();
}

// Which quotes a string scalar needs so that it reads back as the same string.
Quoting quotingOf(std::string_view s) {
  if (s.empty()) return Quoting::Single;
  Quoting q = Quoting::None;
  if (isSpace(s.front()) || isSpace(s.back())) q = Quoting::Single;
  // Words and numbers a plain scalar would read as another type.
  for (std::string_view word :
       {"null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE"})
    if (s == word) q = Quoting::Single;
  if (isNumber(s)) q = Quoting::Single;
  // A plain scalar cannot start with an indicator (a NUL is caught below).
  if (std::strchr(R"(-?:\,[]{}#&*!|>'"%@`)", s.front()) != nullptr) q = Quoting::Single;
  for (unsigned char c : s) {
    if (c != 0 && (isAsciiAlnum(c) || std::strchr("_-^., \t", c) != nullptr)) continue;
    // Line breaks, controls, DEL and anything beyond ASCII: only double quotes can hold them.
    if (c == '\n' || c == '\r' || c <= 0x1f || c >= 0x7f) return Quoting::Double;
    q = Quoting::Single;
  }
  return q;
}

// The code point UTF-8 encodes at `s[i]` and its length in bytes; a length of 0 when the bytes
// there are not UTF-8 (truncated, overlong, a surrogate, beyond U+10FFFF).
std::pair<uint32_t, size_t> decodeUtf8(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  auto continues = [&](size_t n) {
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((byte(k) & 0xc0) != 0x80) return false;
    return true;
  };
  unsigned char lead = byte(0);
  if ((lead & 0xe0) == 0xc0 && continues(2)) {
    uint32_t cp = (lead & 0x1fu) << 6 | (byte(1) & 0x3fu);
    if (cp >= 0x80) return {cp, 2};
  } else if ((lead & 0xf0) == 0xe0 && continues(3)) {
    uint32_t cp = (lead & 0x0fu) << 12 | (byte(1) & 0x3fu) << 6 | (byte(2) & 0x3fu);
    if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) return {cp, 3};
  } else if ((lead & 0xf8) == 0xf0 && continues(4)) {
    uint32_t cp =
        (lead & 0x07u) << 18 | (byte(1) & 0x3fu) << 12 | (byte(2) & 0x3fu) << 6 | (byte(3) & 0x3fu);
    if (cp >= 0x10000 && cp <= 0x10ffff) return {cp, 4};
  }
  return {0, 0};
}

// Whether a terminal shows the code point as a character of its own: not a C1 control, a
// format character (Cf), a private-use one or a noncharacter.
bool isPrintable(uint32_t cp) {
  static constexpr std::pair<uint32_t, uint32_t> kHidden[] = {
      {0x80, 0x9f},       {0x600, 0x605},     {0x61c, 0x61c},     {0x6dd, 0x6dd},
      {0x70f, 0x70f},     {0x890, 0x891},     {0x8e2, 0x8e2},     {0x180e, 0x180e},
      {0x200b, 0x200f},   {0x202a, 0x202e},   {0x2060, 0x2064},   {0x2066, 0x206f},
      {0xe000, 0xf8ff},   {0xfdd0, 0xfdef},   {0xfeff, 0xfeff},   {0xfff9, 0xfffb},
      {0x110bd, 0x110bd}, {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},
      {0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xf0000, 0x10ffff}};
  if ((cp & 0xfffe) == 0xfffe) return false;  // U+FFFE, U+FFFF and their kin in every plane
  for (auto [first, last] : kHidden)
    if (cp >= first && cp <= last) return false;
  return true;
}

std::string hexEscape(uint32_t cp) {
  char buf[16];
  if (cp <= 0xff)
    std::snprintf(buf, sizeof buf, "\\x%02X", cp);
  else if (cp <= 0xffff)
    std::snprintf(buf, sizeof buf, "\\u%04X", cp);
  else
    std::snprintf(buf, sizeof buf, "\\U%08X", cp);
  return buf;
}

// The inside of a double-quoted scalar; nullopt when `s` is not UTF-8.
std::optional<std::string> escaped(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = s[i];
    switch (c) {
      case '\\':
        out += "\\\\";
        continue;
      case '"':
        out += "\\\"";
        continue;
      case 0:
        out += "\\0";
        continue;
      case '\a':
        out += "\\a";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\v':
        out += "\\v";
        continue;
      case '\f':
        out += "\\f";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case 0x1b:
        out += "\\e";
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      out += hexEscape(c);
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      continue;
    }
    auto [cp, length] = decodeUtf8(s, i);
    if (length == 0) return std::nullopt;
    if (cp == 0x85)
      out += "\\N";
    else if (cp == 0xa0)
      out += "\\_";
    else if (cp == 0x2028)
      out += "\\L";
    else if (cp == 0x2029)
      out += "\\P";
    else if (isPrintable(cp))
      out += s.substr(i, length);
    else
      out += hexEscape(cp);
    i += length - 1;
  }
  return out;
}

}  // namespace

std::optional<std::string> yamlScalar(const std::string& text) {
  switch (quotingOf(text)) {
    case Quoting::None:
      return text;
    case Quoting::Single: {
      std::string out = "'";
      for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
      return out + "'";
    }
    case Quoting::Double:
      break;
  }
  std::optional<std::string> inside = escaped(text);
  if (!inside) return std::nullopt;
  return "\"" + *inside + "\"";
}

std::string exportYaml(const Prepared& p, const std::string& mainSourceFile) {
  auto scalar = [](const std::string& text, const std::string& file) {
    std::optional<std::string> s = yamlScalar(text);
    if (!s)
      throw WriteRefused({file + ": not UTF-8, which the YAML of --export-fixes cannot carry; "
                                 "use --diff or --apply"});
    return *s;
  };
  std::string out =
      "---\nMainSourceFile:  " + scalar(mainSourceFile, mainSourceFile) + "\nReplacements:";
  size_t count = 0;
  for (const auto& c : p.changes)
    for (const auto& r : c.replacements) {
      out += "\n  - FilePath:        " + scalar(c.path, c.file) +
             "\n    Offset:          " + std::to_string(r.offset) +
             "\n    Length:          " + std::to_string(r.length) +
             "\n    ReplacementText: " + scalar(r.text, c.file);
      ++count;
    }
  if (count == 0) out += "    []";
  return out + "\n...\n";
}

}  // namespace gridlock::apply
