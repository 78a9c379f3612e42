// Dotted chains as written: `a`, `a.b.c`, `getattr(a.b, "c")` with a literal name, and
// `globals()["x"]`. A chain is what a read can be: its root is a name, the rest attributes.
#pragma once

#include "python/flat_tree.h"
#include "python/syntax_tree.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::python {

struct Chain {
  std::vector<std::string> names;
  std::vector<Node> nodes;   // where each name is written (a string literal for getattr's)
  bool globalsItem = false;  // `globals()["x"]`: `x` of the module, whatever the scope
};

// Whether `getattr` or `globals` named at a node is Python's own (not shadowed there).
using IsBuiltin = std::function<bool(const std::string& name, Node at)>;

// The text of a plain string literal (`"x"`, `'x'`, r"x"; no escapes, interpolation or
// implicit concatenation), or nothing.
std::optional<std::string> literalString(const SyntaxTree& tree, Node n);

// The chain `n` is (parentheses around it allowed), or nothing.
std::optional<Chain> chainOf(const SyntaxTree& tree, Node n, const IsBuiltin& isBuiltin);

}  // namespace gridlock::python
