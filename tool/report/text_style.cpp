#include "report/text_style.h"

namespace gridlock::report {
namespace {

const char* name(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Remark:
      return "remark";
    case Severity::Note:
      return "note";
  }
  return "note";
}

// The ANSI colours clang uses for each severity.
const char* colour(Severity s) {
  switch (s) {
    case Severity::Error:
      return "\033[1;31m";
    case Severity::Warning:
      return "\033[1;35m";
    case Severity::Remark:
      return "\033[1;34m";
    case Severity::Note:
      return "\033[1;36m";
  }
  return "";
}

}  // namespace

std::string diagnostic(const std::string& where, Severity severity, const std::string& message,
                       const std::string& check, bool color) {
  std::string tail = check.empty() ? "" : " [" + check + "]";
  if (!color) return where + ": " + name(severity) + ": " + message + tail + "\n";
  const std::string bold = "\033[1m", reset = "\033[0m";
  return bold + where + ": " + reset + colour(severity) + name(severity) + ": " + reset + bold +
         message + tail + reset + "\n";
}

}  // namespace gridlock::report
