#include "rules/glob.h"

namespace gridlock::rules {

bool globMatch(std::string_view p, std::string_view s) {
  if (p.empty()) return s.empty();
  if (p.starts_with("**")) {
    std::string_view rest = p.substr(2);
    // `**/x` may also match `x` at this level.
    if (rest.starts_with('/') && globMatch(rest.substr(1), s)) return true;
    for (size_t i = 0; i <= s.size(); ++i)
      if (globMatch(rest, s.substr(i))) return true;
    return false;
  }
  if (p[0] == '*') {
    for (size_t i = 0; i <= s.size(); ++i) {
      if (globMatch(p.substr(1), s.substr(i))) return true;
      if (i < s.size() && s[i] == '/') break;
    }
    return false;
  }
  if (s.empty()) return false;
  if (p[0] == '?') return s[0] != '/' && globMatch(p.substr(1), s.substr(1));
  return p[0] == s[0] && globMatch(p.substr(1), s.substr(1));
}

}  // namespace gridlock::rules
