#include "rewrite/python/thread.h"

#include "rewrite/python/autograd.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply.h"
#include "rewrite/python/thread_graph.h"
#include "rewrite/python/thread_hints.h"
#include "rewrite/python/thread_keyword.h"
#include "rewrite/python/ts_node.h"

#include <set>

namespace gridlock::rewrite::py {
namespace {

using facts::Left;
using facts::Strategy;
using ts::field;
using ts::is;
using ts::namedChildren;

bool ownLine(const PySource& src, TSNode n) {
  unsigned start = ts_node_start_byte(n);
  return src.lineStart(start) + src.indentAt(start).size() == start;
}

// Where a helper takes the parameter: before its first parameter with a default (or `*`,
// `*args`, `**kwargs`), else last. Returns its index among the parameters.
size_t addParameter(PyState& s, const ThreadFn& fn, const std::string& param) {
  TSNode params = field<"parameters">(fn.def);
  size_t index = 0;
  for (TSNode p : namedChildren(params)) {
    if (is<"default_parameter">(p) || is<"typed_default_parameter">(p) || isSplat(p, false) ||
        isSplat(p, true) || is<"keyword_separator">(p)) {
      std::string text = ownLine(*fn.src, p)
                             ? param + ",\n" + fn.src->indentAt(ts_node_start_byte(p))
                             : param + ", ";
      s.edit(fn.file, ts_node_start_byte(p), 0, text, Strategy::Thread, fn.name + " thread");
      return index;
    }
    if (!is<"positional_separator">(p)) ++index;
  }
  Insertion ins = appendArgument(*fn.src, params, param);
  s.edit(fn.file, ins.offset, 0, ins.text, Strategy::Thread, fn.name + " thread");
  return index;
}

// forward keeps the parameter on ctx, first thing in its body (after a docstring).
void keepOnCtx(PyState& s, const ThreadFn& fn, const std::string& param) {
  insertFirst(s, fn, {firstParam(*fn.src, fn.def) + "." + param + " = " + param});
}

// The autograd Function's forward, and how many inputs apply gives it (ctx aside).
TSNode forwardOf(const ThreadFn& fn, size_t* inputs) {
  TSNode forward = fn.src->method(PySource::classOf(fn.def), "forward");
  std::vector<PyParam> ps =
      ts_node_is_null(forward) ? std::vector<PyParam>{} : fn.src->params(forward);
  *inputs = ps.empty() ? 0 : ps.size() - 1;
  return forward;
}

// backward returns one gradient per input of forward: none for each parameter the graphs that
// reach it gave forward.
void noGradients(PyState& s, const ThreadFn& fn, size_t added) {
  size_t inputs = 0;
  forwardOf(fn, &inputs);
  std::vector<GradientEdit> edits;
  if (!moreGradients(s, fn.file, *fn.src, fn.def, inputs, added, &edits).empty()) return;
  for (const GradientEdit& e : edits)
    s.edit(fn.file, e.offset, 0, e.text, Strategy::Thread, fn.name + " gradient");
}

void passArgument(PyState& s, const ThreadGraph& g, const ThreadCall& c, size_t index,
                  bool toApply) {
  auto caller = g.fns.find(c.callerUsr);
  std::string value = caller != g.fns.end() ? g.holding(caller->second) : c.value;
  std::string where = c.file + ":" + std::to_string(ts_node_start_point(c.args).row + 1);
  std::vector<TSNode> written = namedChildren(c.args);
  bool positional = toApply;
  if (c.site && !g.fns.at(c.callee).keyword) {
    positional = c.site->args.size() >= index;
    for (size_t k = 0; k < index && positional; ++k)
      positional = c.site->args[k].passed == facts::Passed::Positional;
  }
  if (positional && index < written.size() && !toApply) {
    TSNode before = written[index];
    std::string text = ownLine(*c.src, before)
                           ? value + ",\n" + c.src->indentAt(ts_node_start_byte(before))
                           : value + ", ";
    s.edit(c.file, ts_node_start_byte(before), 0, text, Strategy::Thread, where + " thread");
    return;
  }
  Insertion ins = appendArgument(*c.src, c.args, positional ? value : g.param + "=" + value);
  s.edit(c.file, ins.offset, 0, ins.text, Strategy::Thread, where + " thread");
}

std::string names(const ThreadGraph& g) {
  std::string out;
  for (const auto& [usr, fn] : g.fns) out += (out.empty() ? "" : ", ") + fn.name;
  return out;
}

void emit(PyState& s, const ThreadGraph& g) {
  std::map<std::string, size_t> index;  // usr -> where its parameter goes
  for (const auto& [usr, fn] : g.fns) {
    // A keyword parameter may be None where its fallback has not run yet.
    if (!fn.keyword) s.threaded[{fn.file, ts_node_start_byte(fn.def)}][g.group] = g.holding(fn);
    if (fn.keyword) {
      addKeyword(s, fn, declaration(s, g, fn));
    } else if (fn.role == ThreadFn::Role::Helper) {
      index[usr] = addParameter(s, fn, declaration(s, g, fn));
    } else if (fn.role == ThreadFn::Role::Forward || fn.role == ThreadFn::Role::Symbolic) {
      // Both take apply's inputs: the parameter last, as apply passes it.
      Insertion ins = appendArgument(*fn.src, field<"parameters">(fn.def), declaration(s, g, fn));
      s.edit(fn.file, ins.offset, 0, ins.text, Strategy::Thread, fn.name + " thread");
      if (fn.role == ThreadFn::Role::Forward) keepOnCtx(s, fn, g.param);
    }  // backward's gradients: once every graph is emitted (threadReads)
  }
  for (const ThreadCall& c : g.calls) {
    const ThreadFn& callee = g.fns.at(c.callee);
    if (!c.import.first.empty()) s.edgeImports[c.file].insert(c.import);
    passArgument(s, g, c, index.count(c.callee) ? index[c.callee] : 0,
                 callee.role == ThreadFn::Role::Forward);
  }
  std::string detail = "threads " + g.param + " through " + names(g);
  std::map<const ThreadFn*, std::vector<size_t>> keywordReadsOf;
  for (size_t i : g.reads) {
    const facts::Read& r = s.read(i);
    const ThreadFn* fn = fnOf(s, g, i);
    if (!fn) {
      s.leave(i, Left::NoSource, "the read's function is not where the scan saw it");
      continue;
    }
    if (fn->keyword) {
      keywordReadsOf[fn].push_back(i);
      continue;
    }
    std::string text = spelled(*g.rule, r.yields, g.holding(*fn));
    s.edit(r.file, r.offset, r.length, text, Strategy::Thread, at(r) + " thread");
    s.spelledIn(r.file, *g.rule, r.yields);
    s.apply(i, Strategy::Thread, detail);
    ++s.tally(Strategy::Thread).reads;
  }
  for (const auto& [usr, fn] : g.fns)
    if (fn.keyword && !keywordReadsOf.count(&fn)) globalFallback(s, g, fn);
  for (const auto& [fn, reads] : keywordReadsOf) keywordReads(s, g, *fn, reads, detail);
  s.tally(Strategy::Thread).places += g.fns.size();
}

// A graph whose backward cannot return one more gradient is refused before anything is edited.
std::string backwardProblem(PyState& s, const ThreadGraph& g) {
  for (const auto& [usr, fn] : g.fns)
    if (fn.role == ThreadFn::Role::Backward) {
      size_t inputs = 0;
      forwardOf(fn, &inputs);
      if (std::string why = moreGradients(s, fn.file, *fn.src, fn.def, inputs, 1, nullptr);
          !why.empty())
        return why;
    }
  return "";
}

// Graphs of different parameters that reach the same function insert at the same places (its
// parameter list, its body's start, each call's arguments): one insertion holds them all, in
// the order of the graphs, so a def and its calls list the parameters alike.
void mergeInsertions(std::vector<apply::Edit>& edits, size_t from) {
  std::map<std::pair<std::string, unsigned>, size_t> first;
  std::vector<apply::Edit> out(edits.begin(), edits.begin() + static_cast<long>(from));
  for (size_t i = from; i < edits.size(); ++i) {
    apply::Edit& e = edits[i];
    if (e.length == 0) {
      auto [it, added] = first.try_emplace({e.file, e.offset}, out.size());
      if (!added) {
        apply::Edit& into = out[it->second];
        if (into.text.find(e.text) == std::string::npos) into.text += e.text;
        continue;
      }
    }
    out.push_back(std::move(e));
  }
  edits = std::move(out);
}

}  // namespace

void threadReads(PyState& s) {
  const size_t from = s.plan.edits.size();
  const std::vector<ThreadGraph> graphs = threadGraphs(s);
  // Each backward, and how many graphs gave its forward a parameter: one gradient each.
  std::map<std::string, std::pair<const ThreadFn*, size_t>> backwards;
  for (const ThreadGraph& g : graphs) {
    std::string why = g.left == Left::Unset ? backwardProblem(s, g) : g.why;
    Left left = g.left == Left::Unset ? Left::OpenCallGraph : g.left;
    if (why.empty() && !(why = keywordProblem(s, g)).empty()) left = Left::PublicApi;
    if (why.empty()) {
      emit(s, g);
      for (const auto& [usr, fn] : g.fns)
        if (fn.role == ThreadFn::Role::Backward) {
          backwards[usr].first = &fn;
          ++backwards[usr].second;
        }
      continue;
    }
    for (size_t i : g.reads) {
      s.leave(i, left, "cannot thread " + g.param + ": " + why);
      s.unthreaded.insert(i);
    }
  }
  for (const auto& [usr, backward] : backwards) noGradients(s, *backward.first, backward.second);
  mergeInsertions(s.plan.edits, from);
}

}  // namespace gridlock::rewrite::py
