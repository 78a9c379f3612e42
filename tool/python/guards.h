// Fallbacks in Python: a read that only runs when an explicit group is missing.
//   if g is None: g = ps.get_x()         (also `not g`, `g == None`, `or` of such tests,
//                                         `(g := expr) is None`)
//   if g is not None: ... else: ps.get_x()   (also a bare `g`, `g != None`, `and` of tests)
//   g or ps.get_x()
//   g if g is not None else ps.get_x()   and   ps.get_x() if g is None else g
//   if g is not None: return g  ... then ps.get_x() later in the same block
// `g` is a name or an attribute chain (`self.tp_group`), or `getattr(o, "g"[, default])` with a
// literal name, which stands for `o.g`: `if getattr(pg, "dp", None) is None: pg.dp = ...`,
// `getattr(pg, "tp", None) or ps.get_x()`. `hasattr(o, "g")` tests that `o.g` is there, as
// `o.g is not None` does (`if not hasattr(self, "tp_group"): ...`). Python has no types to check
// it against, so a comparison with None or a hasattr makes any tested value a holder; a truth
// test (`not g`, a bare `g`) does only where the holder is what the construct yields: the
// branch assigns the read to it (`if not g: g = ps.get_x()`), or it is the other branch's value
// (`g if g else ps.get_x()`). A lambda, def or class body is never under the condition around
// it.
#pragma once

#include "python/flat_tree.h"
#include "python/syntax_tree.h"

#include <optional>
#include <string>
#include <vector>

namespace gridlock::python {

// The holder the read at the end of `path` (the root first) falls back from, spelled as a
// chain (`g`, `self.tp_group`, `pg.dp` for `getattr(pg, "dp", None)`), or nothing.
std::optional<std::string> fallbackHolder(const SyntaxTree& tree, const std::vector<Node>& path);

}  // namespace gridlock::python
