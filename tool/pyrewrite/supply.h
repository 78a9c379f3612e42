// Supply (docs/rewrite.md, "Python"): a call that leaves a helper's group out (a `laundered`
// read) passes the group its caller holds, so the helper's fallback no longer runs there.
#pragma once

#include "pyrewrite/plan_state.h"

#include <string>

namespace gridlock::pyrewrite {

// Gives the call of laundered read `i` the group in scope and applies the read's verdict:
// "" when it did, else why it cannot (the read is then left `open_fallback` with that).
std::string supplyCall(State& s, size_t i);

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

}  // namespace gridlock::pyrewrite
