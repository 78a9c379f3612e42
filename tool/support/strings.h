// Small string helpers shared by the parts (and their tests).
#pragma once

#include <string>

namespace gridlock::support {

// Every occurrence of `from` in `s` replaced with `to`, left to right, never rescanning what
// was inserted.
inline void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

}  // namespace gridlock::support
