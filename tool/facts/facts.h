// Plain facts that the frontend emits and every later part reads. Nothing here knows Clang,
// so the index, analyses and reports are testable without compiling anything.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gridlock::facts {

// One reference to global group state at one source location.
struct Read {
  std::string file;  // relative to --root when under it, else absolute
  unsigned line = 0;
  unsigned column = 0;
  std::string name;             // qualified accessor/variable, or the macro rule's name
  std::string kind;             // accessor | shim | global_state | global_write | laundered
  std::string group;            // tp, pp, world, ... ("" for shims and global state)
  std::string yields;           // group | size | rank | src_rank | collection | state
  std::string enclosing;        // qualified enclosing function (or variable); "" at file scope
  std::string enclosingClass;   // qualified enclosing class, "" when none
  std::string guard = "none";   // none | fallback
  std::optional<std::string> macro;  // the macro whose expansion spells the read
  bool edge = false;                 // in a scope.edges file: listed, not counted
  std::optional<std::string> suppressed;  // reason from `// gridlock: allow(reason)`
  std::string fix;        // substitute | require | thread | none (edges, suppressed)
  std::string fixSource;  // what to substitute with, when fix == substitute
  // Identity beyond the reported position: where the read is spelled (inside a macro
  // definition it differs from line:column), so two reads of one expansion stay two.
  std::string spelling;
};

// A `// gridlock: allow` comment that cannot be honoured (no reason given).
struct BadSuppression {
  std::string file;
  unsigned line = 0;
  std::string text;
};

struct ParseError {
  std::string file;                   // the translation unit's main file
  std::vector<std::string> messages;  // its first errors, "file:line:col: error: ..."
};

// Everything one translation unit contributed.
struct TuFacts {
  std::string mainFile;
  std::vector<Read> reads;
  std::vector<BadSuppression> badSuppressions;
  std::optional<ParseError> parseError;
  std::vector<std::string> notes;  // e.g. which nvcc flags were translated or dropped
};

}  // namespace gridlock::facts
