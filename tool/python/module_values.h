// The classes and functions a module hands on as values where the scan does not follow them
// (facts::ValueFact), for `callers`: one named as a value and passed, stored or put in a
// display that is handed on; one returned by a function (whose result is handed on where its
// calls' results are); the results of calls of a function that returns one, handed on; and a
// module-level name bound to a display or a call's result, named from another module. What the
// scan follows (python/value_uses.h) makes sites instead (python/module_program.h).
#pragma once

#include "facts/facts.h"
#include "python/module_program.h"

namespace gridlock::python {

// The values `module` hands on, into `out.values`.
void collectValues(const Definitions& defs, size_t module, facts::TuFacts& out);

}  // namespace gridlock::python
