// What a read in Python runs under: the tests of the constructs around it, from the file alone.
// Each construct between the read and its def (an `if`/`elif`/`else` branch, a conditional
// expression's branch, the right side of `and`/`or`, the statements after an `if` whose body
// returns or raises) says what holds where the read runs, as a conjunction of facts about
// names and attribute chains: `if g is None:` (g is None), `else:` of `if a is not None and
// b is not None:` (nothing: a or b is None), `if flag and tp is None:` (flag true, tp None).
//
// A fact that a value is missing (`is None`, `not hasattr(o, "g")`, or false for a truth test
// `not g`) makes the value a candidate holder of a fallback: `guards`, innermost first.
// Whether one is a fallback is decided where the rule packs are known (module_reads.h): the
// holder must hold a group, a collection, or a value of the parallel layout (docs/scan.md,
// "What counts as a read in Python"). The file alone says whether the read's value is what
// the holder takes (`flows`): `g = read` in the branch, `g or read`, `g if g is not None else
// read`, a branch assigning `t = read` where the other assigns `t` from g (`t = g.size()`), or
// `return read` after `if g is not None: return g`.
//
// A disjunction of values compared with None (`if a is None or b is None:`, the `else:` of
// `if a is not None and b is not None:`) is a candidate for the first of them, the others
// kept; one that also tests something else (`else:` of `if a is not None and other:`) is
// none: it runs with `a` given. A lambda, def or class body
// is never under the construct around it.
#pragma once

#include "facts/kinds.h"
#include "python/flat_tree.h"
#include "python/syntax_tree.h"

#include <string>
#include <vector>

namespace gridlock::python {

struct GuardCandidate {
  std::string holder;     // spelled as a chain: `g`, `self.tp_group`, `pg.dp` for getattr's
  unsigned at = 0;        // the testing construct's first byte: one construct's reads share it
  bool presence = false;  // compared with None, or hasattr; false: a truth test (`not g`)
  bool flows = false;     // the read's value is what the holder stands for here
  // A disjunction's other missing values (`b` of `a is None or b is None`): the read runs
  // when any is missing, so each must hold a group too.
  std::vector<std::string> others;
};

// A fact about a bare name that holds where the read runs.
struct NameTest {
  std::string name;
  facts::Expect expect = facts::Expect::NotNone;
};

struct Conditions {
  std::vector<GuardCandidate> guards;  // innermost first
  std::vector<NameTest> tests;         // innermost first, the candidates' own included
};

// The conditions of the read at the end of `path` (the root first; the read's chain last).
Conditions conditionsOf(const SyntaxTree& tree, const std::vector<Node>& path);

}  // namespace gridlock::python
