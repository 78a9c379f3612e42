#include "rewrite/python/thread_keyword.h"

#include "rewrite/python/closure.h"
#include "rewrite/python/edge_global.h"
#include "rewrite/python/line_length.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply.h"
#include "rewrite/python/ts_node.h"

namespace gridlock::rewrite::py {
namespace {

using facts::Left;
using facts::Strategy;
using ts::field;
using ts::is;

// A read of the parameter's own value (the group, or the collection), which a fallback can assign.
bool ownValue(const ThreadGraph& g, const facts::Read& r) {
  return r.yields == (g.group.empty() ? facts::Yields::Collection : facts::Yields::Group);
}

// Where a conditional expression needs no parentheses: a whole value of its own.
bool wholeValue(TSNode read) {
  TSNode p = ts_node_parent(read);
  return is<"assignment">(p) || is<"augmented_assignment">(p) || is<"return_statement">(p) ||
         is<"argument_list">(p) || is<"keyword_argument">(p) || is<"parenthesized_expression">(p) ||
         is<"list">(p) || is<"tuple">(p);
}

// Whether keyword function `fn` reads no value of the parameter's own kind yet passes the
// parameter on to a function that requires it: it then falls back on the global itself.
bool needsGlobalFallback(PyState& s, const ThreadGraph& g, const ThreadFn& fn) {
  for (size_t i : g.reads)
    if (fnOf(s, g, i) == &fn && ownValue(g, s.read(i))) return false;
  for (const ThreadCall& c : g.calls)
    if (c.callerUsr == fn.usr && !g.fns.at(c.callee).keyword) return true;
  return false;
}

// `inline_`, the fallback in place of read `r`, the whole value of an assignment or a return
// on one line, as black writes it when that line is too long: in parentheses on a line of its
// own, or split before `if` and `else` when that line is too long too.
std::string blackSplit(PyState& s, const facts::Read& r, TSNode read, const std::string& inline_,
                       const std::string& spelling, const std::string& p, const std::string& text) {
  TSNode parent = ts_node_parent(read);
  bool value = (is<"assignment">(parent) && ts::same(field<"right">(parent), read)) ||
               is<"return_statement">(parent);
  const PySource& src = *s.place(r)->src;
  unsigned start = src.lineStart(r.offset), end = src.lineEnd(r.offset);
  std::string_view line = std::string_view(src.text()).substr(start, end - start);
  unsigned limit = lineLength(s.sources.root(), r.file);
  if (!value || r.offset + r.length > end || line.find('#') != std::string_view::npos ||
      line.size() - r.length + inline_.size() <= limit)
    return inline_;
  std::string indent = src.indentAt(r.offset), inner = indent + src.indentUnit();
  if (inner.size() + inline_.size() <= limit) return "(\n" + inner + inline_ + "\n" + indent + ")";
  return "(\n" + inner + spelling + "\n" + inner + "if " + p + " is not None\n" + inner + "else " +
         text + "\n" + indent + ")";
}

std::string why(const ThreadGraph& g, const ThreadFn& fn) {
  return "threads " + g.param + " into " + fn.name + " as a keyword defaulting to None (" +
         fn.name + " is public API, rewrite.python.thread.public_api keyword): this read stays ";
}

}  // namespace

const ThreadFn* fnOf(PyState& s, const ThreadGraph& g, size_t i) {
  const facts::Read& r = s.read(i);
  auto place = s.place(r);
  if (!place) return nullptr;
  for (const auto& [usr, fn] : g.fns)
    if (fn.file == r.file && ts::same(fn.def, outermostDef(place->def))) return &fn;
  return nullptr;
}

std::string keywordProblem(PyState& s, const ThreadGraph& g) {
  for (const auto& [usr, fn] : g.fns) {
    if (!fn.keyword) continue;
    std::vector<TSNode> body = PySource::body(fn.def);
    if (body.empty() || ts_node_start_point(body[0]).row == ts_node_start_point(fn.def).row)
      return fn.name + "'s body starts on its def's line, where no fallback can go first";
    for (size_t i : g.reads)
      if (fnOf(s, g, i) == &fn && !ts::same(s.place(s.read(i))->def, fn.def))
        return fn.name + " is public API, where " + g.param +
               " would be a keyword that may be None, and a nested def in it reads the group";
    if (!needsGlobalFallback(s, g, fn)) continue;
    std::string why;
    if (threadEdgeGlobal(s, fn.file, g.reads, g.group, field<"body">(fn.def), &why)) continue;
    for (const ThreadCall& c : g.calls)
      if (c.callerUsr == usr && !g.fns.at(c.callee).keyword)
        return fn.name + " is public API and reads no " +
               (g.group.empty() ? std::string("collection") : g.group + " group") +
               " to fall back on, so a caller outside the tree that leaves " + g.param +
               " out would pass None on to " + g.fns.at(c.callee).name + ", and " + why;
  }
  return "";
}

bool isSplat(TSNode p, bool keywords) {
  if (is<"typed_parameter">(p)) p = ts_node_named_child(p, 0);
  return keywords ? is<"dictionary_splat_pattern">(p) : is<"list_splat_pattern">(p);
}

void addKeyword(PyState& s, const ThreadFn& fn, const std::string& decl) {
  TSNode params = field<"parameters">(fn.def);
  for (TSNode p : ts::namedChildren(params))
    if (isSplat(p, true)) {
      unsigned start = ts_node_start_byte(p);
      bool ownLine = fn.src->lineStart(start) + fn.src->indentAt(start).size() == start;
      std::string text = ownLine ? decl + ",\n" + fn.src->indentAt(start) : decl + ", ";
      s.edit(fn.file, start, 0, text, Strategy::Thread, fn.name + " thread");
      return;
    }
  Insertion ins = appendArgument(*fn.src, params, decl);
  s.edit(fn.file, ins.offset, 0, ins.text, Strategy::Thread, fn.name + " thread");
}

bool globalFallback(PyState& s, const ThreadGraph& g, const ThreadFn& fn) {
  if (!needsGlobalFallback(s, g, fn)) return false;
  std::string why;
  std::optional<EdgeGlobal> e =
      threadEdgeGlobal(s, fn.file, g.reads, g.group, field<"body">(fn.def), &why);
  if (!e) return false;  // keywordProblem refused such a graph
  insertFirst(s, fn,
              {"if " + g.param + " is None:", fn.src->indentUnit() + g.param + " = " + e->text});
  if (!e->import.first.empty()) s.edgeImports[fn.file].insert(e->import);
  ++s.extras.added[fn.file][e->name];
  return true;
}

void keywordReads(PyState& s, const ThreadGraph& g, const ThreadFn& fn,
                  const std::vector<size_t>& reads, const std::string& detail) {
  const std::string& p = g.param;
  std::optional<size_t> fallback;
  for (size_t i : reads)
    if (ownValue(g, s.read(i)) && (!fallback || s.read(i).offset < s.read(*fallback).offset))
      fallback = i;
  // Given a fallback of its own first, every read is spelled from the parameter.
  bool given = !fallback && globalFallback(s, g, fn);
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    std::string text = fn.src->text().substr(r.offset, r.length);
    std::string spelling = spelled(*g.rule, r.yields, p);
    if (fallback && i == *fallback) {
      insertFirst(s, fn, {"if " + p + " is None:", fn.src->indentUnit() + p + " = " + text});
      s.edit(r.file, r.offset, r.length, p, Strategy::Thread, at(r) + " thread");
      s.leave(i, Left::PublicApi,
              why(g, fn) + "as its fallback: if " + p + " is None: " + p + " = " + text);
    } else if (fallback || given) {
      s.edit(r.file, r.offset, r.length, spelling, Strategy::Thread, at(r) + " thread");
      s.spelledIn(r.file, *g.rule, r.yields);
      s.apply(i, Strategy::Thread, detail);
      ++s.tally(Strategy::Thread).reads;
    } else {
      std::string inline_ = spelling + " if " + p + " is not None else " + text;
      TSNode node = s.place(r)->node;
      if (!wholeValue(node)) inline_ = "(" + inline_ + ")";
      std::string written =
          wholeValue(node) ? blackSplit(s, r, node, inline_, spelling, p, text) : inline_;
      s.edit(r.file, r.offset, r.length, written, Strategy::Thread, at(r) + " thread");
      s.spelledIn(r.file, *g.rule, r.yields);
      s.leave(i, Left::PublicApi, why(g, fn) + "where it is, as the fallback: " + inline_);
    }
  }
}

void insertFirst(PyState& s, const ThreadFn& fn, const std::vector<std::string>& lines) {
  std::vector<TSNode> body = PySource::body(fn.def);
  TSNode first = body.at(0);
  unsigned after = ts_node_start_byte(field<"body">(fn.def));  // the header's line
  for (uint32_t i = 0, c = ts_node_child_count(fn.def); i < c; ++i)
    if (ts_node_type(ts_node_child(fn.def, i)) == std::string_view(":"))
      after = ts_node_start_byte(ts_node_child(fn.def, i));
  if (is<"expression_statement">(first) && is<"string">(ts_node_named_child(first, 0)))
    after = ts_node_end_byte(first);
  std::string indent = fn.src->indentAt(ts_node_start_byte(first)), text;
  for (const std::string& line : lines) text += indent + line + "\n";
  s.edit(fn.file, fn.src->lineEnd(after) + 1, 0, text, Strategy::Thread, fn.name + " thread");
}

}  // namespace gridlock::rewrite::py
