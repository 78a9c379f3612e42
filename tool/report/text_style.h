// Clang-style diagnostic lines, coloured as clang colours them when asked (--color).
#pragma once

#include <string>

namespace gridlock::report {

enum class Severity { Error, Warning, Remark, Note };

// "where: severity: message [check]\n"; `check` "" leaves the bracket out. With `color`, the
// place and message are bold and the severity coloured (error red, warning magenta, remark
// blue, note cyan).
std::string diagnostic(const std::string& where, Severity severity, const std::string& message,
                       const std::string& check, bool color);

}  // namespace gridlock::report
