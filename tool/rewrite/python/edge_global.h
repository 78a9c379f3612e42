// Edge callers given the global (docs/rewrite.md, "Python", rewrite.python.edge_callers:
// "global"): a call or construction in an edge file (a test, an example, a training loop) that
// leaves a group out and holds none passes the global its callee would have read, written out
// as the file reaches it (`split(x, parallel_state.get_context_parallel_group())`), with a
// from-import where it reaches none. The edge keeps the read, where reads are allowed; the
// callee's fallback becomes an error (Require) or its graph closes (Thread). Internal to
// tool/rewrite/python.
#pragma once

#include "analysis/callers.h"
#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::py {

// A global written out in one file: its text, and the from-import (module, name) it needs
// there, empty when the file already reaches it.
struct EdgeGlobal {
  std::string text;
  std::pair<std::string, std::string> import;
  std::string name;  // the read it writes out (an accessor's or shim's qualified name)
};

// `dotted` (`pkg.groups.Collection.use_mpu`) as `src` reaches it through a module-level
// import, else as it is written once `import` (module, name) is added as a from-import: a class
// from its module, a function through its module.
std::string spelledIn(const PySource& src, const std::string& dotted,
                      std::pair<std::string, std::string>* import);

// Read `r`'s accessor or shim call as `file` writes it at `place`
// (`parallel_state.get_tp_group()`): through a module-level import of its module or of it, else
// through the name the file already has for its module (`mpu.get_tp_group()` where `from
// megatron.core import mpu` is that module: qualifierFor), else with a from-import added; or
// nothing with `why` set: not a call, or an argument that is not a literal.
std::optional<EdgeGlobal> edgeGlobal(PyState& s, const std::string& file, const facts::Read& r,
                                     TSNode place, std::string* why);

// What an edge call of a Thread graph at `place` passes for its parameter: the group (`group`;
// the collection when empty) as one of the graph's `reads` reads it, else as the tree reads it
// most often without arguments.
std::optional<EdgeGlobal> threadEdgeGlobal(PyState& s, const std::string& file,
                                           const std::vector<size_t>& reads,
                                           const std::string& group, TSNode place,
                                           std::string* why);

// The name `file` has at `place` for `parent` (a module, or a class, that defines a rule's
// name): the qualifier of one of the file's reads that the scan found to name `parent` itself
// (`mpu` of `mpu.get_x()`, with `mpu` bound to megatron.core.parallel_state, not to a module
// that re-exports get_x), rooted at a module-level name that no def around the read or `place`
// binds otherwise; "" when there is none.
std::string qualifierFor(PyState& s, const std::string& file, const std::string& parent,
                         TSNode place);

// Require's edge callers: each laundered read in an edge file of a pack that passes the global
// is planned (the value the call holds, else the fallback's global), and `supplied` says "" for
// its call when every fallback it reaches is given one there, else why not. The edits wait for
// emit(): only the calls of fallbacks Require made errors change.
class EdgeSupply {
 public:
  explicit EdgeSupply(PyState& s);
  // Whether laundered read `i` is an edge call this plans.
  bool covers(size_t i) const;
  void plan(size_t i, std::map<std::string, std::string>& supplied);
  // The edits of the calls whose fallbacks are now errors, and every edge import.
  void emit();

 private:
  struct Argument {
    std::string file;
    unsigned offset = 0, length = 0;  // a `None` replaced, or the insertion point
    std::string text;
    bool keyword = false;  // written `name=value`
    std::string name;      // the parameter's
    std::pair<std::string, std::string> import;
    std::set<size_t> fallbacks;  // the reads it makes dead
  };
  PyState& s_;
  std::map<std::string, std::vector<std::pair<size_t, analysis::CallerSite>>> breaking_;
  std::map<std::string, std::vector<Argument>> planned_;  // by call, "file:line:col"
  // Fallback read -> the functions that forward their parameter into its function: a fallback
  // of one of those runs first, and the inner one never does.
  std::map<size_t, std::set<std::string>> forwarders_;

  std::string argumentFor(const std::vector<std::pair<size_t, analysis::CallerSite>>& reached,
                          Argument* out);
};

// The edge calls LaunderedCalls planned whose fallbacks are now errors, and every edge import.
class EdgeCalls : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "edge_calls"; }
  std::optional<facts::Strategy> counts() const override { return std::nullopt; }
  void runOn(PyState& s) override { s.edgeSupply->emit(); }
};

}  // namespace gridlock::rewrite::py
