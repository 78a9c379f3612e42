// Which calls and sites of one unit can matter: those whose callee reaches what the rule packs
// scan. A unit that includes a large header library (Eigen, GoogleTest) sees hundreds of
// thousands of calls between the library's own inline functions; none of them can lead to a
// read, a parameter the rewriter threads, or a target `callers` accepts, yet they would make up
// most of the cached facts and of the index's work.
#pragma once

#include "facts/facts.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::frontend {

// Every USR in `seeds`, and every USR that calls one, transitively. `edges`: caller -> callee.
std::set<std::string> reachingUsrs(const std::set<std::string>& seeds,
                                   const std::vector<std::pair<std::string, std::string>>& edges);

// Where one walk's facts start in `tu` (a unit scanned with several commands adds to the same
// facts): only what the walk added is pruned.
struct FactsMark {
  size_t calls = 0, sites = 0, functions = 0, classes = 0, paramLists = 0, classBodies = 0;
};

// Drops the calls and sites from `from` on whose callee is not in `reaching`. A call at the
// place of a call a template leaves dependent (`tu.dependentCalls`) stays, without its sources:
// the rewriter asks whether some instantiation resolved that place, never what it holds there.
void keepReachingCalls(facts::TuFacts& tu, FactsMark from, const std::set<std::string>& reaching);

// Drops, from `from` on, the declarations nothing kept can name. A function (with its parameter
// lists) stays when it is in `reaching`, in `named` (what may be named without a call here: a
// function declared in a file a pack places, a target `callers` may name, and the overrides of
// one, which the target's calls reach), or encloses a kept call or site. A class
// stays when it is in `scannedClasses` (declared in a file a pack places), a kept function is
// its member, a kept site constructs it, or it derives from a class that stays: the hierarchy
// below a target `callers` accepts (declared where a pack scans) is whole; a class body stays
// with its class. Run after keepReachingCalls.
void keepReachingDecls(facts::TuFacts& tu, FactsMark from, const std::set<std::string>& reaching,
                       const std::set<std::string>& named,
                       const std::set<std::string>& scannedClasses);

}  // namespace gridlock::frontend
