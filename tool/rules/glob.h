// Path globs for rule-pack scopes, matched against root-relative paths with '/' separators:
// `**` matches any run of characters including '/', `*` and `?` never cross a '/', and a
// `**/` prefix also matches no directory at all (so `**/*.h` matches `a.h`).
#pragma once

#include <string_view>

namespace gridlock::rules {

bool globMatch(std::string_view pattern, std::string_view path);

}  // namespace gridlock::rules
