// What the independent checker reports of a Python tree: the diagnostics of the kinds that show
// a rewrite broke the code (a name no longer defined, a call that no longer fits its callee, an
// attribute that does not exist, a syntax error). Type complaints that a rewrite cannot cause
// by moving a group around are not compared.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gridlock::rewrite::py::checks {

enum class DiagnosticKind {
  UndefinedName,    // pyright's reportUndefinedVariable
  CallIssue,        // reportCallIssue: arity, unknown keyword, missing argument
  AttributeAccess,  // reportAttributeAccessIssue
  Syntax,           // an error pyright gives no rule: the parser's and tokenizer's
};

// "undefined-name", "call-issue", "attribute-access", "syntax".
std::string_view spell(DiagnosticKind kind);

// The kind a pyright diagnostic counts as: its `rule`, or for an error without one, Syntax;
// nothing for every other rule (they are not compared).
std::optional<DiagnosticKind> kindOfRule(std::string_view rule, bool isError);

struct Diagnostic {
  std::string file;  // relative to the checked tree's root, '/'-separated
  int line = 0;      // 1-based
  int column = 0;    // 1-based
  DiagnosticKind kind = DiagnosticKind::Syntax;
  std::string rule;  // pyright's rule, empty for Syntax
  std::string message;
};

// `file:line:col: kind: message [rule]`, the message's continuation lines joined by "; ".
std::string describe(const Diagnostic& d);

}  // namespace gridlock::rewrite::py::checks
