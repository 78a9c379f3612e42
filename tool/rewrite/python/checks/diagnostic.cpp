#include "rewrite/python/checks/diagnostic.h"

namespace gridlock::rewrite::py::checks {
namespace {

// pyright indents a message's continuation lines with spaces or no-break spaces (U+00A0).
std::string_view trimIndent(std::string_view line) {
  while (true) {
    if (line.starts_with(' ')) {
      line.remove_prefix(1);
    } else if (line.starts_with("\xC2\xA0")) {
      line.remove_prefix(2);
    } else {
      return line;
    }
  }
}

}  // namespace

std::string_view spell(DiagnosticKind kind) {
  switch (kind) {
    case DiagnosticKind::UndefinedName:
      return "undefined-name";
    case DiagnosticKind::CallIssue:
      return "call-issue";
    case DiagnosticKind::AttributeAccess:
      return "attribute-access";
    case DiagnosticKind::Syntax:
      return "syntax";
  }
  return "syntax";
}

std::optional<DiagnosticKind> kindOfRule(std::string_view rule, bool isError) {
  if (rule == "reportUndefinedVariable") return DiagnosticKind::UndefinedName;
  if (rule == "reportCallIssue") return DiagnosticKind::CallIssue;
  if (rule == "reportAttributeAccessIssue") return DiagnosticKind::AttributeAccess;
  if (rule.empty() && isError) return DiagnosticKind::Syntax;
  return std::nullopt;
}

std::string describe(const Diagnostic& d) {
  std::string message;
  std::string_view rest = d.message;
  for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1))
    message += std::string(trimIndent(rest.substr(0, nl))) + "; ";
  message += trimIndent(rest);
  std::string s = d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
                  std::string(spell(d.kind)) + ": " + message;
  if (!d.rule.empty()) s += " [" + d.rule + "]";
  return s;
}

}  // namespace gridlock::rewrite::py::checks
