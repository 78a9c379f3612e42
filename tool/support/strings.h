// Small string helpers shared by the parts (and their tests).
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::support {

// Every occurrence of `from` in `s` replaced with `to`, left to right, never rescanning what
// was inserted.
// A character that may continue a C++ identifier, or start one.
inline bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
inline bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// A C++ identifier: not empty, no leading digit, identifier characters only.
inline bool isIdentifier(const std::string& s) {
  if (s.empty() || !identStart(s[0])) return false;
  for (char c : s)
    if (!identChar(c)) return false;
  return true;
}

inline void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

// The last part of a dotted name (`pkg.mod.f` -> `f`; the name itself without a dot).
inline std::string_view lastName(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

// Words joined by one space, as notes and messages quote a command line.
inline std::string joinWords(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

}  // namespace gridlock::support
