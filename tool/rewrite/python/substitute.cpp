#include "rewrite/python/substitute.h"

#include "rewrite/python/py_state.h"
#include "rewrite/python/require.h"
#include "rewrite/python/scope_values.h"
#include "rewrite/python/ts_node.h"
#include "rules/python_rewrite_rules.h"
#include "support/strings.h"

#include <algorithm>

namespace gridlock::rewrite::py {
namespace {

using facts::Left;
using facts::Strategy;
using facts::Yields;
using ts::field;
using ts::is;

using support::lastName;

// A read spelled as a local that holds the global (`kv = tp_shard.num_kv_heads`, then `kv`):
// the read of the assignment it follows, or nothing.
std::optional<size_t> aliasDefinition(PyState& s, size_t i) {
  const facts::Read& r = s.read(i);
  auto place = s.place(r);
  if (!place || !is<"identifier">(place->node) || ts_node_is_null(place->def)) return std::nullopt;
  std::string name(place->src->text(place->node));
  if (name == lastName(r.name)) return std::nullopt;
  std::optional<size_t> found;
  for (size_t j = 0; j < s.size(); ++j) {
    const facts::Read& d = s.read(j);
    if (j == i || d.file != r.file || d.name != r.name || d.offset >= r.offset) continue;
    auto dp = s.place(d);
    if (!dp) continue;
    TSNode statement = PySource::statementOf(dp->node);
    if (!is<"expression_statement">(statement) || !dominates(statement, place->node)) continue;
    TSNode a = ts_node_named_child(statement, 0);
    if (is<"assignment">(a) && place->src->text(field<"left">(a)) == name) found = j;
  }
  return found;
}

// Why no group is in scope for read `i`: the collection is being built here, the pack names
// no attribute of it for the group, or nothing holds it (then Thread may pass one in).
void noGroup(PyState& s, size_t i, const PyState::Place& p, Left* left, std::string* why) {
  const facts::Read& r = s.read(i);
  const rules::PythonRewriteRule& rule = *s.rule(r);
  bool collection = r.yields == Yields::Collection;
  std::string built = builtIn(*p.src, p.def, rule);
  if (!built.empty()) {
    *left = Left::NoSource;
    *why = r.enclosing + " builds " + built +
           ", whose attributes are not set yet: the read cannot be taken from it";
  } else if (!collection && !attributeFor(rule, r.group) &&
             valueNamed(*p.src, p.def, p.node, rule.collection, &s.lineage)) {
    *left = Left::NoSpelling;
    *why = "the pack names no attribute of the collection for the " + r.group +
           " group (rewrite.python.attributes)";
  } else if (collection && rule.collection.empty()) {
    // Thread would name the parameter after the pack's collection, and it names none.
    *left = Left::NoSpelling;
    *why =
        "no collection in scope, and the pack names no parameter for one "
        "(rewrite.python.collection)";
  } else {
    *left = Left::Thread;
    *why = "nothing in scope holds " + heldValue(r) +
           ": a parameter would have to be threaded into " + r.enclosing;
  }
}

// Whether `text` names `chain` (`self.tp_group`) or something under it, as a whole name.
bool mentions(const std::string& text, const std::string& chain) {
  using support::identChar;
  for (size_t at = text.find(chain); at != std::string::npos; at = text.find(chain, at + 1)) {
    size_t end = at + chain.size();
    if ((at == 0 || (!identChar(text[at - 1]) && text[at - 1] != '.')) &&
        (end == text.size() || !identChar(text[end])))
      return true;
  }
  return false;
}

void substituteWith(PyState& s, size_t i, const std::string& text) {
  const facts::Read& r = s.read(i);
  s.spelledIn(r.file, *s.rule(r), r.yields);
  s.edit(r.file, r.offset, r.length, text, Strategy::Substitute, at(r) + " substitute");
  s.apply(i, Strategy::Substitute, text);
  ++s.tally(Strategy::Substitute).reads;
  ++s.tally(Strategy::Substitute).places;
}

// What replaces read `i` from the value in scope, or why nothing does (`why` set).
std::optional<std::string> substitution(PyState& s, size_t i, const PyState::Place& p, Left* left,
                                        std::string* why) {
  const facts::Read& r = s.read(i);
  const rules::PythonRewriteRule& rule = *s.rule(r);
  *left = Left::NoSpelling;
  if (r.kind == facts::ReadKind::GlobalState) {
    std::string module = r.name.substr(0, r.name.rfind('.'));
    auto st = rule.state.find(module);
    if (st == rule.state.end()) {
      *why = "the pack names no per-model state for " + module + " (rewrite.python.state)";
      return std::nullopt;
    }
    auto v = valueNamed(*p.src, p.def, p.node, {st->second}, &s.lineage);
    if (!v) {
      *left = Left::NoSource;
      *why = "nothing in scope holds this model's " + st->second;
      return std::nullopt;
    }
    return *v + "." + std::string(lastName(r.name));
  }
  std::optional<std::string> attribute = keywordAttribute(r, rule);
  if (!attribute) {
    *why = argumentsUnspelled(r, rule);
    return std::nullopt;
  }
  if (facts::isDerived(r.yields)) {
    if (!rule.spell.count(r.yields)) {
      *why = "the pack does not say how to spell a " + std::string(facts::spell(r.yields)) +
             " (rewrite.python.spell." + std::string(facts::spell(r.yields)) + ")";
      return std::nullopt;
    }
    if (std::string fn = unspellableIn(*p.src, rule, r.yields); !fn.empty()) {
      *why = "the pack spells a " + std::string(facts::spell(r.yields)) + " with " + fn +
             ", which the file does not import (nor the package it is in, straight)";
      return std::nullopt;
    }
  } else if (r.yields != Yields::Group && r.yields != Yields::Collection) {
    *why = "no group method gives a " + std::string(facts::spell(r.yields));
    return std::nullopt;
  }
  bool collection = r.yields == Yields::Collection;
  if (!attribute->empty()) {
    // Only a collection holds the group such a call returns: a name for the group holds the
    // one a call without arguments returns.
    auto c = groupAt(*p.src, p.def, p.node, "", rule, &s.lineage);
    if (!c) {
      s.unthreaded.insert(i);
      *left = Left::NoSource;
      *why = "its arguments name the collection's " + *attribute + ", and no collection is in " +
             "scope (a parameter is threaded only for a call without arguments)";
      return std::nullopt;
    }
    return spelled(rule, r.yields, *c + "." + *attribute);
  }
  auto g = groupAt(*p.src, p.def, p.node, collection ? "" : r.group, rule, &s.lineage);
  if (!g) noGroup(s, i, p, left, why);
  if (!g) return std::nullopt;
  return spelled(rule, r.yields, *g);
}

void substitute(PyState& s, size_t i) {
  const facts::Read& r = s.read(i);
  auto p = s.place(r);
  if (!p || r.length == 0) {
    s.leave(i, Left::NoSource, "the read's place in the file is not known");
    return;
  }
  if (ts_node_is_null(p->def)) {
    s.leave(i, Left::NoSource, "at module level: nothing there can hold a group");
    return;
  }
  if (!r.called && r.kind != facts::ReadKind::GlobalState) {
    s.leave(i, Left::FunctionPointer, "the accessor is named, not called (a callback)");
    return;
  }
  if (r.inLambda || PySource::insideLambda(p->node, p->def)) {
    s.leave(i, Left::Lambda, "inside a lambda");
    return;
  }
  Left left = Left::Unset;
  std::string why;
  std::optional<std::string> text = substitution(s, i, *p, &left, &why);
  if (!text) {
    s.leave(i, left, why);
    return;
  }
  substituteWith(s, i, *text);
}

// A fallback Require leaves (its parameter may still be left out) reads the global where the
// def already holds its group another way (`self.tp_group`, `self.pg_collection.cp`): that
// value, not the global, is what the fallback then gives, as Substitute gives it elsewhere.
// Never the value the condition tests (`if self.tp_group is None:` gives None there).

}  // namespace

void substituteKeptFallback(PyState& s, size_t i) {
  const facts::Read& r = s.read(i);
  const facts::Verdict* v = s.decided(i);
  if (!v || v->applied || (v->left != Left::OpenFallback && v->left != Left::PublicApi) ||
      r.holder.empty() || !r.called || r.inLambda || r.length == 0)
    return;
  auto p = s.place(r);
  if (!p || ts_node_is_null(p->def) || PySource::insideLambda(p->node, p->def)) return;
  Left left = Left::Unset;
  std::string why;
  bool unthreaded = s.unthreaded.count(i);  // substitution() marks a read it fails on
  std::optional<std::string> text = substitution(s, i, *p, &left, &why);
  if (!unthreaded) s.unthreaded.erase(i);
  if (!text || mentions(*text, r.holder)) return;
  s.reopen(i);
  substituteWith(s, i, *text);
}

void Substitute::runOn(PyState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (!s.open(i) || s.read(i).guard == facts::Guard::Fallback) continue;
    if (auto d = aliasDefinition(s, i))
      s.aliases[i] = *d;
    else
      substitute(s, i);
  }
}

}  // namespace gridlock::rewrite::py
