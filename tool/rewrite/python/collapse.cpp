#include "rewrite/python/collapse.h"

#include "rewrite/python/closure.h"
#include "rewrite/python/edge_global.h"
#include "rewrite/python/require.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/thread_graph.h"
#include "rewrite/python/ts_node.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace gridlock::rewrite::py {
namespace {

using facts::Strategy;
using facts::Yields;
using ts::field;
using ts::is;

// The shim that looks the whole collection up (`pkg.groups.Collection.use_mpu_process_groups`):
// a `shim` accessor named in the pack whose rewrite.python is `rule` (or one it extends), or "".
std::string shimOf(const PyState& s, const rules::PythonRewriteRule& rule) {
  for (const rules::RulePack& p : s.rules.packs())
    if (&p.rewrite.python == &rule)
      for (const rules::PythonAccessorRule& a : p.pythonAccessors)
        if (a.kind == facts::ReadKind::Shim && !a.name.empty()) return a.name;
  return "";
}

// Whether read `r` is a size or rank the pack says its accessor gives a default for where the
// group is unset.
bool unsetDefault(const rules::PythonRewriteRule& rule, const facts::Read& r) {
  return r.kind == facts::ReadKind::Accessor && r.yields != Yields::Group &&
         std::find(rule.unsetDefaults.begin(), rule.unsetDefaults.end(), r.group) !=
             rule.unsetDefaults.end();
}

// What read `i` becomes as a field of the collection `name`, or "" (with `why`) when the
// collection cannot spell it: the field the pack names for its group (or for its call's
// keyword arguments), and the pack's `spell` for a size, a rank or a source rank, whose
// function the file must reach as the template writes it.
std::string fieldSpelling(PyState& s, size_t i, const PySource& src, const std::string& name,
                          std::string* field, std::string* why) {
  const facts::Read& r = s.read(i);
  const rules::PythonRewriteRule& rule = *s.rule(r);
  std::optional<std::string> a = keywordAttribute(r, rule);
  if (a && a->empty()) a = attributeFor(rule, r.group);
  if (!a) {
    *why = "the pack names no attribute of the collection for it";
    return "";
  }
  if (unsetDefault(rule, r)) {
    *why = "its accessor returns a default where the " + r.group +
           " group is unset (rewrite.python.unset_defaults), and the lookup's field is None there";
    return "";
  }
  if (r.yields != Yields::Group && !(facts::isDerived(r.yields) && rule.spell.count(r.yields))) {
    *why = "the pack does not spell a " + std::string(facts::spell(r.yields)) + " from a group";
    return "";
  }
  if (std::string fn = unspellableIn(src, rule, r.yields); !fn.empty()) {
    *why = "the file does not import " + fn + " (nor the package it is in, straight), " +
           "which the pack's spelling calls";
    return "";
  }
  *field = *a;
  return spelled(rule, r.yields, name + "." + *a);
}

// Why read `n` may not run each time its statement (`statement`, whose parent is a block)
// runs, or "": the right of `and`/`or`, a branch of a conditional expression, a comprehension,
// an assert's message, an `elif` or `else`, a nested def's defaults or decorators, a class body.
std::string mayNotRun(TSNode n, TSNode statement) {
  for (TSNode c = n; !ts::same(c, statement); c = ts_node_parent(c)) {
    TSNode p = ts_node_parent(c);
    if (ts_node_is_null(p)) return "its statement is not known";
    if (is<"boolean_operator">(p) && ts::same(field<"right">(p), c))
      return "it is on the right of `" + std::string(ts_node_type(ts_node_child(p, 1))) +
             "`, which may not evaluate it";
    if (is<"conditional_expression">(p) && !ts::same(ts_node_named_child(p, 1), c))
      return "it is a branch of a conditional expression";
    if (is<"list_comprehension">(p) || is<"set_comprehension">(p) ||
        is<"dictionary_comprehension">(p) || is<"generator_expression">(p))
      return "it is in a comprehension";
    if (is<"assert_statement">(p) && !ts::same(ts_node_named_child(p, 0), c))
      return "it is an assert's message";
    if (ts::same(p, statement)) {
      bool header =
          (is<"if_statement">(p) || is<"while_statement">(p)) && ts::same(field<"condition">(p), c);
      header = header || (is<"for_statement">(p) && ts::same(field<"right">(p), c));
      header = header || (is<"with_statement">(p) && is<"with_clause">(c));
      bool compound = is<"if_statement">(p) || is<"while_statement">(p) || is<"for_statement">(p) ||
                      is<"with_statement">(p) || is<"try_statement">(p) ||
                      is<"match_statement">(p) || is<"function_definition">(p) ||
                      is<"decorated_definition">(p) || is<"class_definition">(p);
      if (compound && !header)
        return "it is in the header of a " + std::string(ts_node_type(p)) +
               " that may not evaluate it";
    }
  }
  return "";
}

struct Planned {
  size_t read;
  std::string text, field;
  TSNode statement;
};

// The statement of `block` (a block) that holds `n`.
TSNode childOf(TSNode block, TSNode n) {
  while (!ts_node_is_null(n) && !ts::same(ts_node_parent(n), block)) n = ts_node_parent(n);
  return n;
}

// The innermost block of `def` that holds every statement, or a null node.
TSNode commonBlock(TSNode def, const std::vector<Planned>& planned) {
  for (TSNode b = ts_node_parent(planned[0].statement); !ts_node_is_null(b);
       b = ts_node_parent(b)) {
    if (!is<"block">(b)) continue;
    bool all = std::all_of(planned.begin(), planned.end(), [&](const Planned& p) {
      return !ts_node_is_null(childOf(b, p.statement));
    });
    if (all) return b;
    if (ts::same(b, field<"body">(def))) break;
  }
  return TSNode{};
}

// Why the lookup cannot go before `anchor` (in `block`), or "": a read under a `try` or a
// `with` that the lookup would run outside of (an error it raises there would escape the
// handler; the context would not hold yet), or a class body between the def and a read.
std::string placementProblem(TSNode block, const std::vector<Planned>& planned) {
  for (const Planned& p : planned)
    for (TSNode a = ts_node_parent(p.statement); !ts_node_is_null(a) && !ts::same(a, block);
         a = ts_node_parent(a)) {
      if (is<"try_statement">(a)) return "a read is inside a `try` the lookup would run before";
      if (is<"with_statement">(a)) return "a read is inside a `with` the lookup would run before";
      if (is<"class_definition">(a)) return "a read is in a class body";
    }
  return "";
}

// Whether an edit already in the plan inserts at `at` or spans it.
bool editedAt(const PyState& s, const std::string& file, unsigned at) {
  return std::any_of(s.plan.edits.begin(), s.plan.edits.end(), [&](const apply::Edit& e) {
    return e.file == file &&
           ((e.offset == at && e.length == 0) || (e.offset < at && at < e.offset + e.length));
  });
}

bool editedWithin(const PyState& s, const std::string& file, unsigned from, unsigned to) {
  return std::any_of(s.plan.edits.begin(), s.plan.edits.end(), [&](const apply::Edit& e) {
    return e.file == file && e.offset < to && from < e.offset + std::max(e.length, 1u);
  });
}

// Why a read of `def` after `from` that the lookup does not take keeps the def from having
// one, or "": a second run would find the lookup in scope there and substitute it: a read in
// a nested def (by closure), a shim's read (the lookup would stand for the whole collection),
// a fallback (decided again with a collection in scope), a call that leaves a group out (Supply
// would pass the lookup's field), a size or rank the pack's unset_defaults keep out of it.
std::string laterReader(const PyState& s, const std::string& file, const PySource& src, TSNode def,
                        unsigned from, const std::vector<Planned>& planned) {
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (r.language != facts::Language::Python || r.file != file || r.offset < from ||
        r.offset >= ts_node_end_byte(def) || (s.decided(i) && s.decided(i)->applied) ||
        std::any_of(planned.begin(), planned.end(), [&](const Planned& p) { return p.read == i; }))
      continue;
    TSNode n = src.covering(r.offset, r.length);
    std::string what;
    if (!ts_node_is_null(n) && !ts::same(PySource::enclosingDef(n), def))
      what = "a nested def reads";
    else if (r.kind == facts::ReadKind::Shim)
      what = "the shim is read";
    else if (r.guard == facts::Guard::Fallback)
      what = "a fallback reads";
    else if (r.kind == facts::ReadKind::Laundered)
      what = "a call leaves a group out";
    else if (const rules::PythonRewriteRule* rule = s.rule(r); rule && unsetDefault(*rule, r))
      what = "a size or rank with a default where its group is unset is read";
    if (!what.empty())
      return what + " after it (at " + at(r) + "), which a second run would take from the lookup";
  }
  return "";
}

// Thread takes a nested def's reads as its outermost def's: collapsed, they would leave that
// def's graph, and a second run could then thread a read of the same group Thread left there
// (Megatron's public hybrid_context_parallel_forward_backward, refused because its nested
// `_broadcast` reads the group). The outermost def's such read, or "".
std::string enclosingRead(PyState& s, const std::string& file, TSNode def,
                          const std::vector<Planned>& planned) {
  TSNode outer = outermostDef(def);
  if (ts::same(outer, def)) return "";
  std::set<std::string> groups;
  for (const Planned& p : planned) groups.insert(s.read(p.read).group);
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    const facts::Verdict* v = s.decided(i);
    if (r.file != file || !groups.count(r.group) || !v || v->applied) continue;
    auto p = s.place(r);
    if (p && !ts_node_is_null(p->def) && !ts::same(p->def, def) &&
        ts::same(outermostDef(p->def), outer))
      return at(r);
  }
  return "";
}

void note(PyState& s, const std::vector<Planned>& planned, const std::string& why) {
  for (const Planned& p : planned) s.verdict(p.read).detail += "; not collapsed: " + why;
}

void collapseDef(PyState& s, std::vector<size_t> reads) {
  std::sort(reads.begin(), reads.end(),
            [&](size_t a, size_t b) { return s.read(a).offset < s.read(b).offset; });
  const facts::Read& first = s.read(reads[0]);
  const rules::PythonRewriteRule& rule = *s.rule(first);
  auto place = s.place(first);
  const PySource& src = *place->src;
  TSNode def = place->def;
  const std::string name = rule.collection.at(0);
  // The reads that count, and those that may not run where their statement does: those take
  // the lookup only where it runs before them anyway (a second run would substitute them).
  std::vector<Planned> planned, maybe;
  std::map<size_t, std::string> mayNot;
  std::vector<std::pair<size_t, std::string>> unspelled;  // reads the collection cannot spell
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    if (s.rule(r) != &rule) continue;
    auto p = s.place(r);
    if (!p) continue;
    Planned one{i, "", "", PySource::statementOf(p->node)};
    std::string why;
    one.text = fieldSpelling(s, i, src, name, &one.field, &why);
    if (one.text.empty()) {
      unspelled.emplace_back(i, why);
      continue;
    }
    if (std::string w = mayNotRun(p->node, one.statement); !w.empty()) {
      mayNot[i] = w;
      maybe.push_back(std::move(one));
    } else {
      planned.push_back(std::move(one));
    }
  }
  if (planned.size() < 2) return;
  std::string fn = messageName(first);
  if (std::string other = enclosingRead(s, first.file, def, planned); !other.empty()) {
    note(s, planned,
         fn + " is nested in a def that reads the group too, at " + other +
             ", left by Thread: collapsed, these reads would leave its graph and a second run "
             "could thread it");
    return;
  }
  if (mentions(src, def, name)) {
    note(s, planned, fn + " already names " + name);
    return;
  }
  if (std::string built = builtIn(src, def, rule); !built.empty()) {
    note(s, planned, fn + " builds " + built);
    return;
  }
  std::string shim = shimOf(s, rule);
  if (shim.empty()) {
    note(s, planned, "the pack names no shim to look the collection up");
    return;
  }
  TSNode block = commonBlock(def, planned);
  TSNode anchor = ts_node_is_null(block) ? TSNode{} : childOf(block, planned[0].statement);
  unsigned start = ts_node_is_null(anchor) ? 0 : ts_node_start_byte(anchor);
  std::vector<std::pair<size_t, std::string>> skipped;  // reads that may not run, and why
  for (Planned& m : maybe) {
    TSNode c = ts_node_is_null(anchor) ? TSNode{} : childOf(block, m.statement);
    if (!ts_node_is_null(c) && ts_node_start_byte(c) >= start)
      planned.push_back(std::move(m));
    else
      skipped.emplace_back(m.read, mayNot[m.read]);
  }
  std::sort(planned.begin(), planned.end(), [&](const Planned& a, const Planned& b) {
    return s.read(a.read).offset < s.read(b.read).offset;
  });
  std::string problem = ts_node_is_null(anchor) ? "no block of " + fn + " holds every read"
                                                : placementProblem(block, planned);
  if (problem.empty() && src.lineStart(start) + src.indentAt(start).size() != start)
    problem = "the first read's statement shares its line";
  if (problem.empty() && editedAt(s, first.file, src.lineStart(start)))
    problem = "another edit inserts where the lookup would go";
  if (problem.empty())
    problem = laterReader(s, first.file, src, def, src.lineStart(start), planned);
  if (!problem.empty()) {
    note(s, planned, problem);
    return;
  }
  // The fields in order of first use, quoted as the file's messages are.
  std::vector<std::string> fields;
  for (const Planned& p : planned)
    if (std::find(fields.begin(), fields.end(), p.field) == fields.end()) fields.push_back(p.field);
  const char q = messageQuote(src.text());
  std::string list;
  for (const std::string& f : fields) list += (list.empty() ? "" : ", ") + (q + f + q);
  std::pair<std::string, std::string> import;
  std::string lookup = spelledIn(src, shim, &import) + "(required_pgs=[" + list + "])";
  s.edit(first.file, src.lineStart(start), 0, src.indentAt(start) + name + " = " + lookup + "\n",
         Strategy::Collapse, first.file + " collapse of " + fn);
  if (!import.first.empty()) s.edgeImports[first.file].insert(import);
  ++s.extras.added[first.file][shim];
  for (const Planned& p : planned) {
    const facts::Read& r = s.read(p.read);
    std::string was = s.verdict(p.read).detail;
    s.edit(r.file, r.offset, r.length, p.text, Strategy::Collapse, at(r) + " collapse");
    s.spelledIn(r.file, rule, r.yields);
    s.apply(p.read, Strategy::Collapse,
            "replaced with " + p.text + ": one lookup (" + name + ") for " +
                std::to_string(planned.size()) + " reads of " + fn +
                ", which could not be threaded (" + was + ")");
    ++s.tally(Strategy::Collapse).reads;
  }
  skipped.insert(skipped.end(), unspelled.begin(), unspelled.end());
  for (const auto& [i, w] : skipped)
    s.verdict(i).detail += "; not collapsed with the other reads of " + fn + ": " + w;
  ++s.tally(Strategy::Collapse).places;
}

}  // namespace

void collapseReads(PyState& s) {
  std::map<std::pair<std::string, unsigned>, std::vector<size_t>> byDef;
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    const facts::Verdict* v = s.decided(i);
    if (r.language != facts::Language::Python || !v || v->applied || !s.unthreaded.count(i) ||
        r.kind != facts::ReadKind::Accessor || !r.called || r.guard == facts::Guard::Fallback ||
        r.inLambda || r.inDefaultArgument || r.length == 0)
      continue;
    const rules::PythonRewriteRule* rule = s.rule(r);
    if (!rule || !rule->collapse || rule->collection.empty()) continue;
    auto p = s.place(r);
    // In the def's body: a default argument is evaluated where the def is defined.
    TSNode body = p && !ts_node_is_null(p->def) ? field<"body">(p->def) : TSNode{};
    if (ts_node_is_null(body) || ts_node_start_byte(p->node) < ts_node_start_byte(body) ||
        PySource::insideLambda(p->node, p->def) ||
        editedWithin(s, r.file, r.offset, r.offset + r.length))
      continue;
    byDef[{r.file, ts_node_start_byte(p->def)}].push_back(i);
  }
  for (const auto& [def, reads] : byDef)
    if (reads.size() >= 2) collapseDef(s, reads);
}

}  // namespace gridlock::rewrite::py
