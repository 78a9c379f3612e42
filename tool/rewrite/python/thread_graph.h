// The call graph Thread closes (rewrite/python/thread.h): the functions that take the parameter,
// the calls that pass it, the reads it removes, or why it cannot be closed. Internal to
// tool/rewrite/python.
#pragma once

#include "rewrite/python/py_state.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

struct ThreadFn {
  // Symbolic: an autograd Function's `symbolic`, which ONNX export calls with apply's inputs.
  enum class Role { Helper, Forward, Backward, Symbolic } role = Role::Helper;
  std::string usr, file, name;
  const PySource* src = nullptr;
  TSNode def{};
  // Public API given the parameter as a keyword defaulting to None (thread.public_api:
  // "keyword"): its callers in the tree pass it by name, the global is its fallback.
  bool keyword = false;
};

struct ThreadCall {
  std::string file;
  const PySource* src = nullptr;
  TSNode args{};                          // the argument list
  std::string callerUsr;                  // the def around it
  std::string value;                      // what it passes when its caller is not in the graph
  const facts::SiteFact* site = nullptr;  // null for `Cls.apply(...)`
  std::string callee;                     // the usr of the function reached
  // In an edge file holding nothing, with the pack's edge_callers "global": `value` is the
  // global written out (rewrite/python/edge_global.h), which may need `import` (module, name).
  bool edge = false;
  std::pair<std::string, std::string> import;
};

struct ThreadGraph {
  std::string param;  // the parameter: `cp_group`, `pg_collection`
  std::string group;  // its group, "" for a collection
  const rules::PythonRewriteRule* rule = nullptr;
  std::map<std::string, ThreadFn> fns;  // by usr
  std::vector<ThreadCall> calls;
  std::vector<size_t> reads;
  facts::Left left = facts::Left::Unset;  // set: refused, with `why`
  std::string why;
  bool merged = false;  // absorbed into another graph

  void refuse(facts::Left l, std::string w) {
    if (left != facts::Left::Unset) return;
    left = l;
    why = std::move(w);
  }
  // How a function of the graph holds the parameter: itself, or `ctx.<param>` in backward.
  std::string holding(const ThreadFn& fn) const;
};

// The graphs that would thread the reads substitution left `thread`, grown from their
// functions to callers that hold the group, merged where they meet.
std::vector<ThreadGraph> threadGraphs(PyState& s);

// Whether the identifier `name` is spelled anywhere under `n` (nested defs and lambdas too).
bool mentions(const PySource& src, TSNode n, const std::string& name);

// The def's first parameter (`ctx` of an autograd Function's staticmethods).
std::string firstParam(const PySource& src, TSNode def);

}  // namespace gridlock::rewrite::py
