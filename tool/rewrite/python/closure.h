// What a nested def sees of the def around it (docs/rewrite.md, "Python": substitute, thread):
// a name the nested def does not bind is the enclosing def's, as it stands when the nested def
// runs. Internal to tool/rewrite/python.
#pragma once

#include "rewrite/python/python_source.h"

#include <string>

namespace gridlock::rewrite::py {

// The def around `def` when `def` is nested in it (through its blocks, not through a class),
// else a null node; `*statement` is the statement that defines `def` (its decorated
// definition, or itself).
TSNode outerDef(TSNode def, TSNode* statement);

// The def a closure chain ends at: `def` itself when it is not nested, else the outermost def
// around it (through blocks, not through a class).
TSNode outermostDef(TSNode def);

// Whether `def`, defined by `statement` in `outer`, reads `name` from `outer` and whatever it
// reads is what `outer` holds at `statement`: `def` binds no `name` anywhere in it (parameter,
// assignment, loop, `with`/`except` target, walrus, import, def, class, `del`, `global`,
// `nonlocal`), and nothing binds it in `outer` after `statement` starts, nor in another def
// inside `outer` (where a `nonlocal` would rebind it whenever that def runs). A binding that comes
// before `statement` is then the one `def` sees whenever it runs: it cannot run before it is
// defined.
bool closesOver(const PySource& src, TSNode def, TSNode outer, TSNode statement,
                const std::string& name);

}  // namespace gridlock::rewrite::py
