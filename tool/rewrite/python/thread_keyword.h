// Thread's keyword form for public API (docs/rewrite.md, "Python"; thread.public_api:
// "keyword"): a public function of the graph takes the parameter last (before `**kwargs`) as
// `cp_group=None`, so no call written before binds it; callers in the tree pass it by name; and
// the global stays only as the fallback of callers that leave it out, which the scan sees as a
// fallback of the function's own parameter (a call in the tree that leaves it out is laundered):
//   def split(x, pad=0, cp_group=None):
//       if cp_group is None:
//           cp_group = parallel_state.get_context_parallel_group()
// A function that reads no value of the parameter's own kind (only a size, say) falls back where
// each read is: `(cp_group.size() if cp_group is not None else <read>)`, unless it passes the
// parameter on to a function that requires it: then it falls back first, on the global written
// out (globalFallback). Internal to
// tool/rewrite/python.
#pragma once

#include "rewrite/python/thread_graph.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// Why the graph's public functions cannot take the keyword ("" when they can): one that passes
// the parameter on to a function that requires it, reads no value to fall back on and has no
// global to write out as its fallback, or whose body starts on its def's line.
std::string keywordProblem(PyState& s, const ThreadGraph& g);

// The function of the graph that read `i` is in, or null.
const ThreadFn* fnOf(PyState& s, const ThreadGraph& g, size_t i);

// Adds `fn`'s keyword parameter, declared as `declaration` (`cp_group=None`).
void addKeyword(PyState& s, const ThreadFn& fn, const std::string& declaration);

// Whether a parameter node is `*args` or `**kwargs` (annotated or not).
bool isSplat(TSNode p, bool keywords);

// Edits `reads` (indices into the scan's reads, all in keyword function `fn`) and gives their
// verdicts: the fallback's read stays (`public_api`), the others are threaded.
void keywordReads(PyState& s, const ThreadGraph& g, const ThreadFn& fn,
                  const std::vector<size_t>& reads, const std::string& detail);

// A keyword function that reads no value of the parameter's own kind but passes it on to a
// function that requires it gets `if cp_group is None: cp_group = <the global>` first in its
// body, the global written out as its file reaches it (`threadEdgeGlobal`); true when it did.
bool globalFallback(PyState& s, const ThreadGraph& g, const ThreadFn& fn);
// Inserts `lines` (each without the body's indentation) first in `fn`'s body, after a
// docstring.
void insertFirst(PyState& s, const ThreadFn& fn, const std::vector<std::string>& lines);

}  // namespace gridlock::rewrite::py
