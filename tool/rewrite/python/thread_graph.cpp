#include "rewrite/python/thread_graph.h"

#include "rewrite/python/autograd.h"
#include "rewrite/python/closure.h"
#include "rewrite/python/edge_global.h"
#include "rewrite/python/public_api.h"
#include "rewrite/python/references.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply.h"
#include "rewrite/python/ts_node.h"
#include "support/source_files.h"

#include <deque>
#include <set>

namespace gridlock::rewrite::py {
namespace {

using facts::Left;
using ts::field;
using ts::is;
using ts::namedChildren;

bool isAutogradFunction(const PySource& src, TSNode cls) {
  for (TSNode base : namedChildren(field<"superclasses">(cls))) {
    std::string_view b = src.text(base);
    if (b == "Function" || b.ends_with("autograd.Function")) return true;
  }
  return false;
}

class Builder {
 public:
  explicit Builder(PyState& s) : s_(s) {
    for (const auto& [usr, fn] : s.inv.program.functions) byPlace_[{fn.file, fn.line}] = usr;
    for (const std::string& f : s.inv.programFiles)
      if (support::isPythonSource(f) && s.rules.placeAny(f, true) != rules::Placement::Out)
        files_.insert(f);
    tree_ = treeNames(files_);
  }

  std::vector<ThreadGraph> build();

 private:
  PyState& s_;
  std::map<std::pair<std::string, unsigned>, std::string> byPlace_;
  std::set<std::string> files_;
  std::set<std::string, std::less<>> tree_;  // treeNames(files_)
  std::vector<ThreadGraph> graphs_;
  std::map<std::pair<std::string, std::string>, size_t> owner_;  // (param, usr) -> graph

  std::string usrAt(const std::string& file, TSNode def) {
    auto it = byPlace_.find({file, ts::lineOf(def)});
    return it == byPlace_.end() ? "" : it->second;
  }
  bool edge(const std::string& file) {
    return s_.rules.placeAny(file, true) != rules::Placement::In;
  }
  void grow(size_t g, const std::string& usr);
  bool admit(ThreadGraph& g, ThreadFn& fn);
  void callsOf(size_t g, const ThreadFn& fn);
  std::string calledByName(const ThreadFn& fn, TSNode cls);
  void reach(size_t g, ThreadCall call, TSNode callerDef);
  void absorb(size_t into, size_t from);
  void edgeValues(ThreadGraph& g);
};

// The global each edge call of `g` that holds nothing passes, written as its file reaches it.
void Builder::edgeValues(ThreadGraph& g) {
  for (ThreadCall& c : g.calls) {
    if (!c.edge || g.left != Left::Unset) continue;
    std::string why;
    std::optional<EdgeGlobal> e = threadEdgeGlobal(s_, c.file, g.reads, g.group, c.args, &why);
    if (!e) {
      g.refuse(Left::OpenCallGraph, "the call at " + c.file + ":" +
                                        std::to_string(ts_node_start_point(c.args).row + 1) +
                                        " holds nothing, and " + why);
      return;
    }
    c.value = e->text;
    c.import = e->import;
  }
}

// Whether `fn` can take the parameter: a module-level function in scope (or an autograd
// Function's forward, backward or symbolic), not public API unless the pack takes it as a
// keyword, named only where it is called.
bool Builder::admit(ThreadGraph& g, ThreadFn& fn) {
  const std::string where = fn.file + ":" + std::to_string(ts::lineOf(fn.def));
  TSNode cls = PySource::classOf(fn.def);
  if (!ts_node_is_null(cls)) {
    bool autograd = isAutogradFunction(*fn.src, cls) &&
                    (fn.name == "forward" || fn.name == "backward" || fn.name == "symbolic");
    std::vector<std::string> d = fn.src->decorators(fn.def);
    if (!autograd || std::find(d.begin(), d.end(), "staticmethod") == d.end()) {
      g.refuse(Left::OpenCallGraph,
               fn.name + " (" + where + ") is a method: its callers are not all known");
      return false;
    }
    fn.role = fn.name == "forward"    ? ThreadFn::Role::Forward
              : fn.name == "backward" ? ThreadFn::Role::Backward
                                      : ThreadFn::Role::Symbolic;
  } else if (!PySource::atModuleLevel(fn.def)) {
    g.refuse(Left::OpenCallGraph,
             fn.name + " (" + where + ") is a nested def: the scan binds no call of it");
    return false;
  }
  if (edge(fn.file)) {
    g.refuse(Left::OpenCallGraph, fn.name + " (" + where + ") is in an edge file");
    return false;
  }
  if (std::string why = s_.closed(fn.file); !why.empty()) {
    g.refuse(Left::OpenCallGraph,
             fn.name + " (" + where + ") would take the parameter, but " + why);
    return false;
  }
  // forward and symbolic take the parameter last among apply's inputs; backward's parameters
  // are forward's outputs' gradients, which it leaves as they are.
  if (fn.role == ThreadFn::Role::Forward || fn.role == ThreadFn::Role::Symbolic) {
    std::string why = inputsProblem(*fn.src, fn.def, fn.name + " (" + where + ")");
    if (why.empty() && fn.role == ThreadFn::Role::Forward) why = functionProblem(*fn.src, fn.def);
    if (!why.empty()) {
      g.refuse(Left::OpenCallGraph, why);
      return false;
    }
  }
  for (const PyParam& p : fn.src->params(fn.def))
    if (p.name == g.param) {
      g.refuse(Left::NameClash, fn.name + " (" + where + ") already takes " + g.param +
                                    ", which may be None where the read is");
      return false;
    }
  if (mentions(*fn.src, fn.def, g.param)) {
    g.refuse(Left::NameClash, fn.name + " (" + where + ") already uses the name " + g.param);
    return false;
  }
  std::string glob =
      fn.role == ThreadFn::Role::Helper ? publicGlob(*g.rule, fn.file, *fn.src, fn.def) : "";
  if (!glob.empty() && !g.rule->publicKeyword) {
    g.refuse(Left::PublicApi, fn.name + " is public API (rewrite.python.thread.public " + glob +
                                  "): its callers outside the tree keep its signature");
    return false;
  }
  fn.keyword = !glob.empty();
  return true;
}

void Builder::reach(size_t g, ThreadCall call, TSNode callerDef) {
  ThreadGraph& graph = graphs_[g];
  std::string where = call.file + ":" + std::to_string(ts_node_start_point(call.args).row + 1);
  if (ts_node_is_null(callerDef)) {
    graph.refuse(Left::OpenCallGraph, "called at module level (" + where + ")");
    return;
  }
  if (std::string why = s_.closed(call.file); !why.empty()) {
    graph.refuse(Left::OpenCallGraph,
                 "the call at " + where + " would pass the parameter, but " + why);
    return;
  }
  call.callerUsr = usrAt(call.file, callerDef);
  if (auto v = groupAt(*call.src, callerDef, call.args, graph.group, *graph.rule, &s_.lineage)) {
    call.value = *v;
  } else if (edge(call.file) && graph.rule->edgeGlobal && !s_.held(call.file)) {
    call.edge = true;  // passes the global, known once the graph's reads are (build())
  } else if (!edge(call.file) && !ts::same(outermostDef(callerDef), callerDef)) {
    // A call in a nested def passes what its outermost def is given, by closure.
    call.callerUsr = usrAt(call.file, outermostDef(callerDef));
    if (call.callerUsr.empty()) {
      graph.refuse(Left::OpenCallGraph, "the def around the call at " + where + " is not known");
      return;
    }
  } else if (edge(call.file) || call.callerUsr.empty()) {
    graph.refuse(Left::OpenCallGraph,
                 "the call at " + where + " holds no " +
                     (graph.group.empty() ? "collection" : graph.group + " group") +
                     " and its function cannot take one");
    return;
  }
  std::string caller = call.callerUsr;
  graph.calls.push_back(std::move(call));
  if (graphs_[g].calls.back().value.empty() && !graphs_[g].calls.back().edge) grow(g, caller);
}

// Where `<its class>.<fn>` is named ("file:line"), or "": such a call passes what it writes
// (Megatron-LM's tests call `_CopyToModelParallelRegion.symbolic(None, x, tp_group)`).
std::string Builder::calledByName(const ThreadFn& fn, TSNode cls) {
  std::string_view name = fn.src->text(field<"name">(cls));
  for (const NameUse& use : usesOf(s_.sources, files_, fn.name)) {
    TSNode p = ts_node_parent(use.node);
    if (!is<"attribute">(p) || !ts::same(field<"attribute">(p), use.node)) continue;
    TSNode object = field<"object">(p);
    if (is<"attribute">(object)) object = field<"attribute">(object);
    if (use.src->text(object) == name) return use.file + ":" + std::to_string(ts::lineOf(use.node));
  }
  return "";
}

// Every call of `fn`, each passing a value its caller holds or growing the graph to the caller.
void Builder::callsOf(size_t g, const ThreadFn& fn) {
  if (fn.role == ThreadFn::Role::Backward || fn.role == ThreadFn::Role::Symbolic) {
    // backward gets the parameter from ctx, where forward keeps it; symbolic gets what apply
    // was given, as forward does. Either way forward takes it and every apply passes it.
    TSNode cls = PySource::classOf(fn.def);
    TSNode forward = fn.src->method(cls, "forward");
    std::string usr = ts_node_is_null(forward) ? "" : usrAt(fn.file, forward);
    if (usr.empty()) {
      graphs_[g].refuse(Left::OpenCallGraph, fn.name + "'s class has no forward to take it");
      return;
    }
    if (fn.role == ThreadFn::Role::Symbolic)
      if (std::string where = calledByName(fn, cls); !where.empty()) {
        graphs_[g].refuse(Left::OpenCallGraph, "symbolic is called by name at " + where);
        return;
      }
    grow(g, usr);
    return;
  }
  if (fn.role == ThreadFn::Role::Forward) {
    // One more input of apply: torch asks backward for one more gradient, and ONNX export
    // calls symbolic with it too, whatever either reads.
    for (const std::string other : {"backward", "symbolic"}) {
      TSNode d = fn.src->method(PySource::classOf(fn.def), other);
      if (ts_node_is_null(d)) continue;
      std::string usr = usrAt(fn.file, d);
      if (usr.empty()) {
        graphs_[g].refuse(Left::NoSource, other + " (" + fn.file + ":" +
                                              std::to_string(ts::lineOf(d)) +
                                              ") is not a function the scan saw");
        return;
      }
      grow(g, usr);
    }
    std::string cls(fn.src->text(field<"name">(PySource::classOf(fn.def))));
    const Definition def{fn.file, cls, false, &tree_};
    for (const NameUse& use : namingsOf(s_.sources, files_, cls)) {
      if (!refersTo(use, def)) continue;
      TSNode call = applyCall(use);
      if (ts_node_is_null(call)) {
        graphs_[g].refuse(Left::FunctionPointer, cls + " is named other than in " + cls +
                                                     ".apply(...) at " + use.file + ":" +
                                                     std::to_string(ts::lineOf(use.node)));
        return;
      }
      reach(g, {use.file, use.src, field<"arguments">(call), "", "", nullptr, fn.usr, false, {}},
            PySource::enclosingDef(call));
    }
    return;
  }
  const Definition def{fn.file, fn.name, false, &tree_};
  for (const NameUse& use : namingsOf(s_.sources, files_, fn.name))
    if (ts_node_is_null(use.call) && refersTo(use, def)) {
      graphs_[g].refuse(Left::FunctionPointer, fn.name + " is named without a call at " + use.file +
                                                   ":" + std::to_string(ts::lineOf(use.node)));
      return;
    }
  for (const facts::SiteFact& site : s_.inv.program.sites) {
    if (site.calleeUsr != fn.usr) continue;
    auto place = s_.place(site.file, site.rparen, 1);
    TSNode args = place ? argumentListAt(*place->src, site.rparen) : TSNode{};
    if (ts_node_is_null(args)) {
      graphs_[g].refuse(Left::NoSource, "the call at " + site.file + ":" +
                                            std::to_string(site.line) + " cannot be read");
      return;
    }
    for (const facts::ArgFact& a : site.args)
      if (a.passed == facts::Passed::StarArgs || a.passed == facts::Passed::StarKwargs ||
          a.passed == facts::Passed::StarKwargsKey || a.passed == facts::Passed::Unknown ||
          a.passed == facts::Passed::Twice) {
        graphs_[g].refuse(Left::OpenCallGraph, "the call at " + site.file + ":" +
                                                   std::to_string(site.line) +
                                                   " passes its arguments through * or **");
        return;
      }
    reach(g, {site.file, place->src, args, "", "", &site, fn.usr, false, {}}, place->def);
  }
}

void Builder::absorb(size_t into, size_t from) {
  ThreadGraph& a = graphs_[into];
  ThreadGraph& b = graphs_[from];
  for (auto& [usr, fn] : b.fns) {
    a.fns.emplace(usr, fn);
    owner_[{a.param, usr}] = into;
  }
  a.calls.insert(a.calls.end(), b.calls.begin(), b.calls.end());
  a.reads.insert(a.reads.end(), b.reads.begin(), b.reads.end());
  if (b.left != Left::Unset) a.refuse(b.left, b.why);
  b.merged = true;
}

void Builder::grow(size_t g, const std::string& usr) {
  std::deque<std::string> todo{usr};
  while (!todo.empty()) {
    std::string u = todo.front();
    todo.pop_front();
    ThreadGraph& graph = graphs_[g];
    if (graph.fns.count(u)) continue;
    auto own = owner_.find({graph.param, u});
    if (own != owner_.end() && own->second != g) {
      absorb(g, own->second);
      continue;
    }
    auto fact = s_.inv.program.functions.find(u);
    const PySource* src =
        fact == s_.inv.program.functions.end() ? nullptr : s_.sources.get(fact->second.file);
    TSNode def = src ? src->defAt(fact->second.line) : TSNode{};
    if (ts_node_is_null(def)) {
      graph.refuse(Left::NoSource, "a caller's definition (" + u + ") cannot be read");
      continue;
    }
    ThreadFn fn{ThreadFn::Role::Helper,
                u,
                fact->second.file,
                std::string(src->text(field<"name">(def))),
                src,
                def};
    if (!admit(graph, fn)) continue;
    graph.fns.emplace(u, fn);
    owner_[{graph.param, u}] = g;
    callsOf(g, graphs_[g].fns.at(u));
  }
}

std::vector<ThreadGraph> Builder::build() {
  for (size_t i = 0; i < s_.size(); ++i) {
    const facts::Read& r = s_.read(i);
    const facts::Verdict* v = s_.decided(i);
    if (r.language != facts::Language::Python || !v || v->applied || v->left != Left::Thread)
      continue;
    const rules::PythonRewriteRule* rule = s_.rule(r);
    auto place = s_.place(r);
    if (!rule || !place || ts_node_is_null(place->def)) continue;
    bool collection = r.yields == facts::Yields::Collection;
    std::string param = collection ? rule->collection.at(0) : groupName(*rule, r.group);
    // A read in a nested def is its outermost def's: the parameter given to that def reaches
    // the nested def by closure (admit refuses a def that already names the parameter).
    std::string usr = usrAt(r.file, outermostDef(place->def));
    if (usr.empty()) continue;
    size_t g;
    auto own = owner_.find({param, usr});
    if (own != owner_.end()) {
      g = own->second;
    } else {
      g = graphs_.size();
      graphs_.push_back(
          {param, collection ? "" : r.group, rule, {}, {}, {}, Left::Unset, "", false});
      grow(g, usr);
      g = owner_.count({param, usr}) ? owner_.at({param, usr}) : g;
    }
    graphs_[g].reads.push_back(i);
  }
  std::vector<ThreadGraph> out;
  for (ThreadGraph& g : graphs_)
    if (!g.merged) {
      edgeValues(g);
      out.push_back(std::move(g));
    }
  return out;
}

}  // namespace

bool mentions(const PySource& src, TSNode n, const std::string& name) {
  if (is<"identifier">(n) && src.text(n) == name) return true;
  for (uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i)
    if (mentions(src, ts_node_named_child(n, i), name)) return true;
  return false;
}

std::string firstParam(const PySource& src, TSNode def) {
  std::vector<PyParam> ps = src.params(def);
  return ps.empty() ? "ctx" : ps[0].name;
}

std::string ThreadGraph::holding(const ThreadFn& fn) const {
  if (fn.role != ThreadFn::Role::Backward) return param;
  return firstParam(*fn.src, fn.def) + "." + param;
}

std::vector<ThreadGraph> threadGraphs(PyState& s) { return Builder(s).build(); }

}  // namespace gridlock::rewrite::py
