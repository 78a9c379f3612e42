// Hoisting an edge's global (`thread.hoist`): an edge function (main, a function in an edge
// file) that Thread makes pass the pack's `edge` at two or more calls declares it once, as a
// local of the parameter's own declaration before its first statement
// (`const GlobalEnv& env = GlobalEnv::Instance();`), and passes the local: one place that
// names the global, as a maintainer would write it. Only where the pack asks: the expression
// is evaluated once at entry instead of at each call, so it must give the same object
// wherever it is evaluated.
#pragma once

#include "rewrite/cpp/cpp_state.h"
#include "rules/rule_pack.h"

#include <map>
#include <set>
#include <string>
#include <utility>

namespace gridlock::rewrite::cpp {

using ArgKey = std::pair<std::string, unsigned>;  // (file, offset) of an inserted argument
// Per edge function (USR), per thread rule, where it passes the rule's edge.
using EdgeArgs = std::map<std::string, std::map<const rules::ThreadRule*, std::set<ArgKey>>>;

// Declares the locals and rewrites the arguments in `args` (the inserted texts, which end or
// start with the edge) to pass them. A function whose body already declares a name the local
// would take, whose parameter has it, or where the arguments are not all in its body, is left
// as it is. Decided per body: a function two programs each define gets a local in each.
void hoistEdges(CppState& s, const EdgeArgs& edges,
                std::map<ArgKey, std::pair<std::string, std::string>>& args);

}  // namespace gridlock::rewrite::cpp
