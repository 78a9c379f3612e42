// Whether an argument a call writes may be None (docs/rewrite.md, "Python", `require`): a
// fallback `if p is None: p = <read>` runs for a call that passes None as surely as for one that
// leaves p out, so Require counts a written argument as supplying p only when it holds a value.
// Python declares no types, so the answer is read from the code, conservatively:
//   may be None: the literal None; a parameter defaulting to None; an attribute of an object the
//     scan cannot type (`args.tp_size`, `config.x`); `self.x` unless every assignment of it in
//     its class holds a value and __init__ makes one unconditionally; a subscript, a tuple
//     unpacked, a loop or `with` target; `getattr(o, n, None)`, `d.get(k)`; a name assigned any
//     of those (unless the def checks it for None first: `if x is None: x = 1`);
//   holds a value: any other literal or display, arithmetic, a comparison, a call (an accessor,
//     a constructor, `.size()`), a parameter without a None default, an import, a def or a
//     class, and a name assigned only from such; an attribute of a collection (one of the pack's
//     `collection` names, or `self.` one: its fields hold groups, and one it lacks raises
//     AttributeError rather than giving None); an attribute the def assigned a value before, in
//     a block around the argument (`cls.pg = make()`, then `f(cls.pg)`).
#pragma once

#include "rewrite/python/python_source.h"
#include "rules/rule_pack.h"

#include <string>

namespace gridlock::rewrite::py {

// Why `arg` (an argument as a call writes it, `x` or `name=x`) in `def` (null at module level)
// may be None, or "" when it holds a value; `rule` names the collections.
std::string mayBeNone(const PySource& src, TSNode arg, TSNode def,
                      const rules::PythonRewriteRule& rule);

}  // namespace gridlock::rewrite::py
