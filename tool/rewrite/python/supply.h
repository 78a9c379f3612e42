// Supply (docs/rewrite.md, "Python"): a call that leaves a helper's group out (a `laundered`
// read) passes the group its caller holds, so the helper's fallback no longer runs there.
#pragma once

#include "rewrite/python/py_state.h"

#include <optional>
#include <string>

namespace gridlock::rewrite::py {

// Gives the call of laundered read `i` the group in scope and applies the read's verdict:
// "" when it did, else why it cannot (the read is then left `open_fallback` with that).
std::string supplyCall(PyState& s, size_t i);

// What a call that passes fallback read `f`'s parameter must pass to mean what the fallback
// would have given it, with the read written at the call as `read` (spelled from the group the
// call holds, `group` itself, or the global written out): `read` where the fallback gives the
// parameter the read (`h = <read>`, `h = h or <read>`, `h = <read> if h is None else h`, `return
// <read>` after `if h is not None: return h`, or `h = <read> or default` for a group, a
// collection or a size, never false); where it gives an expression of the read, literals and
// operators alone (`h = <read> > 1`), that expression with the read replaced (`pp_group.size() >
// 1`), which means the same at the call as in the callee; where the read goes elsewhere (`flag =
// <read> > 1` beside `flag = h.size() > 1`), what the parameter's name says it holds: `group`
// for a group (`pp_group`, `pg`), `read` for a collection read into a collection; else nothing,
// with `why` set (a value built from the read by a call: `Communicator(<read>)`).
std::optional<std::string> fallbackValue(PyState& s, const facts::Read& f, const std::string& read,
                                         const std::string& group, std::string* why);

// Whether the argument for the callee's parameter `index` (`fn`, defined in `callee`) can be
// written positionally after the arguments `site` writes: every earlier parameter is passed
// positionally, none after it is, and it is not keyword-only.
bool positional(const facts::SiteFact& site, int index, const PySource* callee,
                const facts::FunctionFact& fn);

// The argument list of the call whose closing parenthesis is at `rparen`, or a null node.
TSNode argumentListAt(const PySource& src, unsigned rparen);

// The edit that adds `argument` (`x` or `name=x`) as the last argument of `args` (an
// argument_list): after the last one written, keeping a magic trailing comma and one argument
// per line where the call has them.
struct Insertion {
  unsigned offset = 0;
  std::string text;
};
Insertion appendArgument(const PySource& src, TSNode args, const std::string& argument);

}  // namespace gridlock::rewrite::py
