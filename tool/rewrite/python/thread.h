// Thread (docs/rewrite.md, "Python"): a read in a function that holds no group gets it as a new
// required parameter, threaded up the closed call graph of module-level helpers to the callers
// that hold it (a parameter, self.<attr>, pg_collection.<g>): every function of the graph gains
// the parameter, every call of one passes it. An autograd Function's forward takes it through
// `Cls.apply(...)` and keeps it on ctx for backward, which returns no gradient for it. A graph
// that is open (a caller at module level, in a method or an edge file holding nothing; a
// function named without a call) or public API is left whole, with the reason, unless the pack
// gives public API the parameter as a keyword (rewrite/python/thread_keyword.h).
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

// Threads the Python reads that substitution left `thread`.
void threadReads(PyState& s);

class Thread : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "thread"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Thread; }
  void runOn(PyState& s) override { threadReads(s); }
};

}  // namespace gridlock::rewrite::py
