#include "rewrite/python/require.h"

#include "analysis/callers.h"
#include "rewrite/python/maybe_none.h"
#include "rewrite/python/public_api.h"
#include "rewrite/python/references.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/specs.h"
#include "rewrite/python/substitute.h"
#include "rewrite/python/ts_node.h"
#include "support/source_files.h"

#include <algorithm>
#include <set>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

// How the read's statement falls back, and so what replaces it.
enum class Form {
  None,
  IfBody,  // `if h is None:` whose only statement is `h = <read>`: the statement raises
  Inline,  // `h = h or <read>` (or a conditional expression): an `if h is None:` that raises
  Block,   // `if h is None:` whose statements each assign a read falling back on h: one raise
};

Form formOf(const PySource& src, TSNode statement, TSNode read, const std::string& holder) {
  if (!is<"expression_statement">(statement) || ts_node_named_child_count(statement) != 1)
    return Form::None;
  TSNode a = ts_node_named_child(statement, 0);
  if (!is<"assignment">(a) || src.text(field<"left">(a)) != holder) return Form::None;
  TSNode right = ts::unparen(field<"right">(a));
  if (ts::same(right, read)) {
    TSNode block = ts_node_parent(statement);
    TSNode test = ts_node_parent(block);
    if (!is<"if_statement">(test) || !ts::same(field<"consequence">(test), block) ||
        namedChildren(block).size() != 1)
      return Form::None;
    std::string c = squeezed(src.text(field<"condition">(test)));
    return c == holder + " is None" || c == "not " + holder ? Form::IfBody : Form::None;
  }
  if (is<"boolean_operator">(right) && src.text(field<"left">(right)) == holder &&
      ts::same(ts::unparen(field<"right">(right)), read))
    return Form::Inline;
  if (is<"conditional_expression">(right) && namedChildren(right).size() == 3) {
    std::vector<TSNode> parts = namedChildren(right);  // body, condition, else
    std::string c = squeezed(src.text(parts[1]));
    if ((c == holder + " is None" && ts::same(ts::unparen(parts[0]), read) &&
         src.text(parts[2]) == holder) ||
        (c == holder + " is not None" && src.text(parts[0]) == holder &&
         ts::same(ts::unparen(parts[2]), read)))
      return Form::Inline;
  }
  return Form::None;
}

// Whether `value` is a read that falls back on the same parameter as `r`.
bool fallbackReadAt(const PyState& s, const facts::Read& r, TSNode value) {
  value = ts::unparen(value);
  for (size_t j = 0; j < s.size(); ++j) {
    const facts::Read& d = s.read(j);
    if (d.file == r.file && d.guard == facts::Guard::Fallback &&
        d.guardFunction == r.guardFunction && d.guardParam == r.guardParam &&
        d.offset == ts_node_start_byte(value) && d.offset + d.length == ts_node_end_byte(value))
      return true;
  }
  return false;
}

// The block of `if h is None:` (or `if not h:`) holding `statement` when each of its
// statements assigns a read that falls back on h (`dp_group = get_dp_group()`, then
// `tp_group = get_tp_group()`); else a null node.
TSNode fallbackBlock(const PyState& s, const facts::Read& r, const PySource& src,
                     TSNode statement) {
  TSNode block = ts_node_parent(statement);
  TSNode test = ts_node_parent(block);
  if (!is<"if_statement">(test) || !ts::same(field<"consequence">(test), block)) return TSNode{};
  std::string c = squeezed(src.text(field<"condition">(test)));
  if (c != r.holder + " is None" && c != "not " + r.holder) return TSNode{};
  for (TSNode st : namedChildren(block)) {
    TSNode a = assignmentOf(st);
    if (ts_node_is_null(a) || !fallbackReadAt(s, r, field<"right">(a))) return TSNode{};
  }
  return block;
}

// Leaves read `i` open_fallback: `head` and each of `sites`.
void leaveListing(PyState& s, size_t i, std::string head, const std::vector<std::string>& sites) {
  head = std::to_string(sites.size()) + head + ":";
  for (const auto& site : sites) head += " " + site + ";";
  head.pop_back();
  s.leave(i, facts::Left::OpenFallback, head);
}

// Makes read `i`'s fallback an error: its statement becomes the raise; in a block, the first
// statement does and the others go, each with its line (comments between them stay).
void raiseInstead(PyState& s, size_t i, const PySource& src, TSNode statement, Form form,
                  TSNode block) {
  const facts::Read& r = s.read(i);
  char q = messageQuote(src.text());
  std::string raise = "raise " + s.rule(r)->error + "(" + q + messageName(r) +
                      " requires an explicit " + r.holder + q + ")";
  unsigned start = ts_node_start_byte(statement), end = ts_node_end_byte(statement);
  std::string indent = src.indentAt(start);
  std::string text = form == Form::Inline
                         ? "if " + r.holder + " is None:\n" + indent + src.indentUnit() + raise
                         : raise;
  bool first = form != Form::Block || ts::same(namedChildren(block).front(), statement);
  if (!first) {
    text.clear();
    if (src.lineStart(start) + indent.size() == start && src.lineEnd(end) == end) {
      start = src.lineStart(start);
      end = std::min<unsigned>(end + 1, src.text().size());
    }
  }
  s.edit(r.file, start, end - start, text, facts::Strategy::Require, at(r) + " require");
  s.apply(i, facts::Strategy::Require, raise);
  ++s.tally(facts::Strategy::Require).reads;
  if (first) ++s.tally(facts::Strategy::Require).places;
}

// Why the calls of `def` are not all seen, or "": a method other than `__init__` is called
// through objects whose type the scan does not know (`config.layout.get_offset(x)` leaves
// pp_rank out unseen), and an autograd Function's forward through `Cls.apply(...)`, which passes
// on whatever its caller was given, None included. A class is built by its name, so
// `__init__`'s callers are the constructions the scan binds.
std::string unseenCallers(const PySource& src, TSNode def) {
  if (ts_node_is_null(def) || ts_node_is_null(PySource::classOf(def))) return "";
  std::string name(src.text(field<"name">(def)));
  if (name == "__init__") return "";
  return name +
         " is a method: its calls through objects the scan cannot type are not seen, so "
         "the fallback is not proven dead";
}

// The calls that write the argument as something that may be None (docs/rewrite.md, "Python",
// `require`), each "file:line:col: passes `args.tp_size`, which may be None (why)"; none when
// every written argument holds a value. A call that forwards its own parameter is judged by its
// callers' arguments, which the reach lists too.
std::vector<std::string> passingMaybeNone(PyState& s, const facts::Read& r) {
  std::vector<std::string> out;
  for (const analysis::CallerSite& c :
       analysis::reach(s.inv.program, {{r.guardFunction, r.guardParam}})) {
    if (c.supplied != facts::Supplied::Explicit) continue;
    const facts::SiteFact& site = s.inv.program.sites[c.siteIndex];
    if (c.param < 0 || static_cast<size_t>(c.param) >= site.args.size()) continue;
    const facts::ArgFact& a = site.args[c.param];
    if (a.length == 0) continue;  // carried by *args or **kwargs, not written for it
    std::string where = facts::where(c.file, c.line, c.column);
    auto place = s.place(c.file, a.offset, a.length);
    if (!place) {
      out.push_back(where + ": its file cannot be read");
      continue;
    }
    std::string why = mayBeNone(*place->src, place->node, place->def, *s.rule(r));
    TSNode value = is<"keyword_argument">(place->node) ? field<"value">(place->node) : place->node;
    if (why == "None")
      out.push_back(where + ": passes None");
    else if (!why.empty())
      out.push_back(where + ": passes `" + std::string(place->src->text(value)) +
                    "`, which may be None (" + why + ")");
  }
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The Python files the plan scans, edge files included (those a call may be in).
std::set<std::string> pythonFiles(const PyState& s) {
  std::set<std::string> out;
  for (const std::string& f : s.inv.programFiles)
    if (support::isPythonSource(f) && s.rules.placeAny(f, true) != rules::Placement::Out)
      out.insert(f);
  return out;
}

// A def the fallback's argument comes through: the fallback's own, or one that passes its own
// parameter on to it (`super().__init__(..., tp_group=tp_group)`, a helper building the class).
// The calls of each decide whether the argument arrives, so each is checked as the fallback's
// own def is: one named as a value, public, a method, or built from specs passes on what calls
// the scan does not see give it.
struct Link {
  std::string file;
  const PySource* src = nullptr;
  TSNode def{};
  std::string param;
  std::string subject;  // how messages begin: "Block", "Block's tp_group comes from Sub's ..."
};

// The name a message gives a def: its class for `__init__`, `Class.method`, else its own.
std::string defName(const PySource& src, TSNode def) {
  std::string name(src.text(field<"name">(def)));
  TSNode cls = PySource::classOf(def);
  if (ts_node_is_null(cls)) return name;
  std::string c(src.text(field<"name">(cls)));
  return name == "__init__" ? c : c + "." + name;
}

// The defs that forward read `r`'s parameter to its fallback, along every chain; a def whose
// source is not found is named in `unread`.
std::vector<Link> forwardingDefs(PyState& s, const facts::Read& r, std::string& unread) {
  std::vector<Link> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (const analysis::CallerSite& c :
       analysis::reach(s.inv.program, {{r.guardFunction, r.guardParam}})) {
    if (c.supplied != facts::Supplied::Forwarded) continue;
    size_t open = c.forwardedFrom.rfind('(');
    std::string param = open == std::string::npos
                            ? std::string()
                            : c.forwardedFrom.substr(open + 1, c.forwardedFrom.size() - open - 2);
    if (!seen.emplace(c.callerUsr, param).second) continue;
    auto fn = s.inv.program.functions.find(c.callerUsr);
    const PySource* src =
        fn == s.inv.program.functions.end() ? nullptr : s.sources.get(fn->second.file);
    TSNode def = src ? src->defAt(fn->second.line) : TSNode{};
    if (ts_node_is_null(def) || param.empty()) {
      if (unread.empty()) unread = facts::where(c.file, c.line, c.column);
      continue;
    }
    std::string name = defName(*src, def);
    out.push_back({fn->second.file, src, def, param,
                   messageName(r) + "'s " + r.holder + " comes from " + name + "'s " + param +
                       ", and " + name});
  }
  return out;
}

}  // namespace

// The quote the file's error messages use: that of the first `raise X('...')`, else the
// double quote black writes.
char messageQuote(const std::string& text) {
  for (size_t at = text.find("raise "); at != std::string::npos; at = text.find("raise ", at + 1)) {
    size_t paren = text.find('(', at);
    size_t eol = text.find('\n', at);
    if (paren == std::string::npos || paren > eol) continue;
    size_t q = text.find_first_not_of(" \n", paren + 1);
    if (q != std::string::npos && (text[q] == '\'' || text[q] == '"')) return text[q];
  }
  return '"';
}

void requireArgument(PyState& s, size_t i, const std::map<std::string, std::string>& supplied) {
  const facts::Read& r = s.read(i);
  if (r.holder.empty() || r.guardParam < 0) {
    s.leave(i, facts::Left::OpenFallback,
            "the fallback tests " + (r.holder.empty() ? std::string("a value") : r.holder) +
                ", not a parameter of " + messageName(r));
    return;
  }
  auto place = s.place(r);
  if (!place) {
    s.leave(i, facts::Left::NoSource, "the file cannot be read");
    return;
  }
  std::string unread;
  std::vector<Link> links{{r.file, place->src, place->def, r.holder, messageName(r)}};
  for (Link& l : forwardingDefs(s, r, unread)) links.push_back(std::move(l));
  if (!unread.empty()) {
    s.leave(i, facts::Left::OpenFallback,
            "the def that passes " + r.holder + " on at " + unread + " cannot be read");
    return;
  }
  const rules::PythonRewriteRule& rule = *s.rule(r);
  std::set<std::string> files = pythonFiles(s);
  std::vector<std::string> specOpen, specNone;
  std::set<std::string, std::less<>> classes;
  if (!rule.specs.empty())
    for (const auto& [usr, c] : s.inv.program.classes)
      classes.insert(c.name.substr(c.name.rfind('.') + 1));
  for (const Link& l : links) {
    if (std::string glob = publicGlob(rule, l.file, *l.src, l.def); !glob.empty()) {
      s.leave(i, facts::Left::PublicApi,
              l.subject + " is public API (rewrite.python.thread.public " + glob +
                  "): callers outside the tree may leave " + l.param + " out");
      return;
    }
    if (std::string why = unseenCallers(*l.src, l.def); !why.empty()) {
      s.leave(i, facts::Left::OpenFallback,
              &l == &links.front() ? why
                                   : l.subject + " is a method: " + why.substr(why.find(": ") + 2));
      return;
    }
    std::vector<NameUse> placed;
    std::vector<std::string> names;
    const rules::PythonSpecRule* specs = rule.specs.empty() ? nullptr : &rule.specs;
    if (std::string where =
            namedAsValue(s.sources, files, l.file, *l.src, l.def, specs, &placed, &names);
        !where.empty()) {
      s.leave(i, facts::Left::FunctionPointer,
              l.subject + " is named without a call (" + where +
                  "): what calls it there may leave " + l.param + " out, unseen");
      return;
    }
    if (!specs || ts_node_is_null(PySource::classOf(l.def))) continue;
    SpecVerdict v =
        specConstructions(s.sources, files, rule, names, placed, *l.src, l.def, l.param, classes);
    if (!v.refused.empty()) {
      s.leave(i, facts::Left::FunctionPointer,
              l.subject + " is built from specs where the model cannot follow " + l.param + " (" +
                  v.refused + ")");
      return;
    }
    specOpen.insert(specOpen.end(), v.leftOut.begin(), v.leftOut.end());
    specNone.insert(specNone.end(), v.maybeNone.begin(), v.maybeNone.end());
  }
  bool dead = r.analysis.fallbackDead.value_or(false);
  std::vector<std::string> open;
  if (!dead) {
    for (const auto& site : r.analysis.breakingSites) {
      auto it = supplied.find(site);
      if (it == supplied.end())
        open.push_back(site + ": a call the plan does not see as laundered");
      else if (!it->second.empty())
        open.push_back(site + ": " + it->second);
    }
  }
  open.insert(open.end(), specOpen.begin(), specOpen.end());
  if (!open.empty()) {
    leaveListing(s, i, " call site(s) leave " + r.holder + " out and cannot be given it", open);
    return;
  }
  std::vector<std::string> none = passingMaybeNone(s, r);
  none.insert(none.end(), specNone.begin(), specNone.end());
  if (!none.empty()) {
    leaveListing(s, i, " call site(s) may pass None for " + r.holder + ", so the fallback may run",
                 none);
    return;
  }
  const PySource& src = *place->src;
  TSNode statement = PySource::statementOf(place->node);
  Form form = formOf(src, statement, place->node, r.holder);
  TSNode block = form == Form::None ? fallbackBlock(s, r, src, statement) : TSNode{};
  if (!ts_node_is_null(block)) form = Form::Block;
  TSNode assigned = assignmentOf(statement);
  if (form == Form::None && !ts_node_is_null(assigned) &&
      src.text(field<"left">(assigned)) == r.holder &&
      !ts::same(ts::unparen(field<"right">(assigned)), place->node)) {
    // `h = <read> > 1`, `h = Communicator(<read>)`: what the parameter was given is not the read.
    s.leave(i, facts::Left::NoSpelling,
            "the fallback gives " + r.holder + " `" + squeezed(src.text(field<"right">(assigned))) +
                "`, not the value it reads: make it an error by hand");
    return;
  }
  if (form == Form::None) {
    s.leave(i, facts::Left::NoSpelling,
            "the fallback is not `if " + r.holder + " is None: " + r.holder + " = ...` (nor " +
                "such a block assigning only reads), nor `" + r.holder + " = " + r.holder +
                " or ...`: make it an error by hand");
    return;
  }
  raiseInstead(s, i, src, statement, form, block);
}

void Require::runOn(PyState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (!s.open(i) || s.read(i).guard != facts::Guard::Fallback) continue;
    requireArgument(s, i, s.supplied);
    substituteKeptFallback(s, i);
  }
}

}  // namespace gridlock::rewrite::py
