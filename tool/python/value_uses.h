// How a class or function named without a call is used, and where a call's result goes, from
// the file alone: what `callers` needs to know that its list of sites is whole. A value handed
// on where the scan does not follow it (passed, stored, put in a display that is handed on)
// may be called there, unseen; one the scan follows (an alias, a name bound to a call's result
// or to a display, then called) is a site instead (docs/callers.md, "Python").
#pragma once

#include "python/chains.h"
#include "python/module_facts.h"

#include <string_view>
#include <vector>

namespace gridlock::python {

struct ValueContext {
  ValueUse use = ValueUse::None;
  Handed handed = Handed::Other;  // Escapes: how
  int element = -1;               // Returned: the element of a returned tuple
  Node boundTo{};                 // Element: the name the display is assigned to
};

// How the value `path.back()` (named, not called) is used; `path` runs from the module to it.
// `isBuiltin` says whether a name (isinstance, super, ...) is Python's own where it is written.
ValueContext valueContext(const SyntaxTree& tree, const std::vector<Node>& path,
                          const IsBuiltin& isBuiltin);

// Where the result of the call `path.back()` goes.
enum class ResultGoes {
  Discarded,  // an expression statement, a test, ...: nothing can call it
  Bound,      // `x = f()`, `a, b = f()`: the names' uses decide
  Called,     // `f()(...)`: called at once
  HandedOn,   // handed on here (`how`)
};
ResultGoes resultGoes(const SyntaxTree& tree, const std::vector<Node>& path,
                      const IsBuiltin& isBuiltin, Handed* how);

// A list, tuple, set or dict display, and the values it holds as written (a list's, tuple's or
// set's elements, a dict's values; a `*x` or `**x` in it is none).
bool isDisplay(Node n);
std::vector<Node> displayElements(Node display);

// "passed as an argument", "stored", ...
std::string_view describe(Handed how);

}  // namespace gridlock::python
