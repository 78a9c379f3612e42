#include "rewrite/python/scope_values.h"

#include "rewrite/python/closure.h"
#include "rewrite/python/import_add.h"
#include "rewrite/python/ts_node.h"
#include "rules/python_rewrite_rules.h"
#include "support/strings.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

bool isNone(std::string_view s) { return s == "None"; }

// Whether `n` (or a node under it) compares `name` with None: `name is None`,
// `name is not None`.
bool comparesWithNone(const PySource& src, TSNode n, const std::string& name) {
  if (is<"comparison_operator">(n)) {
    std::string c = squeezed(src.text(n));
    if (c == name + " is None" || c == name + " is not None") return true;
  }
  for (TSNode c : namedChildren(n))
    if (comparesWithNone(src, c, name)) return true;
  return false;
}

// A local `name = <not None>` bound before `at` in every path to it. A local the def itself
// compares with None (`pg_collection = config.pg_collection`, then `if pg_collection is not
// None:`) may be None at `at`, unless a check before `at` rules that out.
bool assignedBefore(const PySource& src, TSNode def, TSNode at, const std::string& name) {
  bool found = false;
  statementsUnder(field<"body">(def), [&](TSNode s) {
    TSNode a = assignmentOf(s);
    if (found || ts_node_is_null(a)) return;
    TSNode left = field<"left">(a), right = field<"right">(a);
    if (!is<"identifier">(left) || src.text(left) != name || ts_node_is_null(right)) return;
    found = !isNone(src.text(right)) && dominates(s, at);
  });
  return found &&
         (!comparesWithNone(src, field<"body">(def), name) || checkedBefore(src, def, at, name));
}

// The statement of `__init__`'s own body that runs the base's: `super().__init__(...)`.
TSNode superInit(const PySource& src, TSNode init) {
  for (TSNode s : PySource::body(init)) {
    if (!is<"expression_statement">(s) || ts_node_named_child_count(s) != 1) continue;
    TSNode call = ts_node_named_child(s, 0);
    if (!is<"call">(call)) continue;
    TSNode f = field<"function">(call);
    if (!is<"attribute">(f) || src.text(field<"attribute">(f)) != "__init__") continue;
    // `super()`, or `super(<the class>, self)`: another class would start the order elsewhere.
    std::string object = squeezed(src.text(field<"object">(f)));
    TSNode cls = PySource::classOf(init);
    if (object == "super()" ||
        (!ts_node_is_null(cls) &&
         object == "super(" + std::string(src.text(field<"name">(cls))) + ",self)"))
      return s;
  }
  return TSNode{};
}

// Whether a statement of `init`'s body before `before` names `self.<method>`: the method would
// run before the attribute is set.
bool namesSelfBefore(const PySource& src, TSNode init, TSNode before, const std::string& method) {
  for (TSNode s : PySource::body(init)) {
    if (ts::same(s, before)) return false;
    if (spellsSelf(src, s, method)) return true;
  }
  return false;
}

bool paramHolds(const PySource& src, TSNode def, TSNode at, const std::string& name) {
  for (const PyParam& p : src.params(def))
    if (p.name == name && p.kind != PyParam::Kind::VarArgs && p.kind != PyParam::Kind::VarKeywords)
      return !p.hasDefault || !isNone(p.defaultText) || checkedBefore(src, def, at, name);
  return false;
}

// Whether `self.x = value` at `statement` of `init` keeps something sure: not None, nor a
// parameter that may be None there (unchecked, and not bound again before).
bool keepsValue(const PySource& src, TSNode init, TSNode statement, TSNode value) {
  if (isNone(src.text(value))) return false;
  if (!is<"identifier">(value)) return true;
  std::string v(src.text(value));
  for (const PyParam& p : src.params(init))
    if (p.name == v && p.hasDefault && isNone(p.defaultText) &&
        !checkedBefore(src, init, statement, v) && !assignedBefore(src, init, statement, v))
      return false;
  return true;
}

// `self.<name>` (or the private `self._<name>`) as the first `__init__` of the class's method
// resolution order sets it (the class's own, else the first base's that defines one), or,
// where that `__init__` sets neither and runs the next one first thing it does not skip
// (`super().__init__(...)` among its own statements), as the next `__init__` of that order
// does, and so on. Refused where a base on the way is unresolved, where `__init__` names the
// def's method before the attribute is set (the method would run without it), or at the end
// of the order (`object.__init__` sets nothing).
std::optional<std::string> selfAttribute(const PySource& src, TSNode def, TSNode at,
                                         const std::string& name, const Lineage* lineage) {
  if (!isInstanceMethod(src, def)) return std::nullopt;
  const std::string method(src.text(field<"name">(def)));
  PyClass own{&src, PySource::classOf(def)};
  std::vector<std::optional<PyClass>> order;
  if (lineage) order = lineage->mro(own);
  if (order.empty()) order.emplace_back(own);
  for (size_t k = 0;; ++k) {
    while (k < order.size() && order[k] &&
           ts_node_is_null(order[k]->src->method(order[k]->node, "__init__")))
      ++k;
    if (k >= order.size() || !order[k]) return std::nullopt;
    const PyClass& c = *order[k];
    TSNode init = c.src->method(c.node, "__init__");
    bool setHere = false;
    for (const std::string& attribute : {name, "_" + name}) {
      TSNode statement{};
      TSNode value = setInInit(*c.src, init, attribute, &statement);
      if (ts_node_is_null(value)) continue;
      setHere = true;
      if (!keepsValue(*c.src, init, statement, value)) continue;
      if (ts::same(init, def) ? !dominates(statement, at)
                              : namesSelfBefore(*c.src, init, statement, method))
        continue;
      return "self." + attribute;
    }
    TSNode ran = superInit(*c.src, init);
    if (setHere || ts_node_is_null(ran)) return std::nullopt;
    if (ts::same(init, def) ? !dominates(ran, at) : namesSelfBefore(*c.src, init, ran, method))
      return std::nullopt;
  }
}

}  // namespace

TSNode assignmentOf(TSNode statement) {
  if (!is<"expression_statement">(statement) || ts_node_named_child_count(statement) != 1)
    return TSNode{};
  TSNode a = ts_node_named_child(statement, 0);
  return is<"assignment">(a) ? a : TSNode{};
}

void statementsUnder(TSNode n, const std::function<void(TSNode)>& f) {
  for (TSNode c : namedChildren(n)) {
    if (is<"function_definition">(c) || is<"class_definition">(c) ||
        is<"decorated_definition">(c) || is<"lambda">(c))
      continue;
    if (is<"block">(ts_node_parent(c))) f(c);
    statementsUnder(c, f);
  }
}

bool isInstanceMethod(const PySource& src, TSNode def) {
  if (ts_node_is_null(PySource::classOf(def))) return false;
  for (const std::string& d : src.decorators(def))
    if (d == "staticmethod" || d == "classmethod") return false;
  std::vector<PyParam> ps = src.params(def);
  return !ps.empty() && ps[0].name == "self";
}

bool checkedBefore(const PySource& src, TSNode def, TSNode at, const std::string& name) {
  bool found = false;
  statementsUnder(field<"body">(def), [&](TSNode s) {
    if (found || !dominates(s, at)) return;
    if (is<"if_statement">(s)) {
      std::string c = squeezed(src.text(field<"condition">(s)));
      found = c == name + " is None" || c == "not " + name;
      return;
    }
    TSNode a = assignmentOf(s);
    if (ts_node_is_null(a) || src.text(field<"left">(a)) != name) return;
    TSNode right = field<"right">(a);
    found = is<"boolean_operator">(right) && src.text(field<"left">(right)) == name;
  });
  return found;
}

TSNode setInInit(const PySource& src, TSNode init, const std::string& name, TSNode* statement) {
  TSNode found{};
  for (TSNode s : PySource::body(init)) {
    TSNode a = assignmentOf(s);
    if (ts_node_is_null(a) || !isSelfAttribute(src, field<"left">(a), name)) continue;
    *statement = s;
    found = field<"right">(a);
  }
  return found;
}

bool isSelfAttribute(const PySource& src, TSNode n, const std::string& name) {
  return is<"attribute">(n) && src.text(field<"object">(n)) == "self" &&
         src.text(field<"attribute">(n)) == name;
}

bool spellsSelf(const PySource& src, TSNode n, const std::string& name) {
  if (isSelfAttribute(src, n, name)) return true;
  for (TSNode c : namedChildren(n))
    if (spellsSelf(src, c, name)) return true;
  return false;
}

std::optional<std::string> valueNamed(const PySource& src, TSNode def, TSNode at,
                                      const std::vector<std::string>& names,
                                      const Lineage* lineage) {
  if (ts_node_is_null(def)) return std::nullopt;
  for (const std::string& n : names)
    if (n != "self" && (paramHolds(src, def, at, n) || assignedBefore(src, def, at, n))) return n;
  for (const std::string& n : names)
    if (auto a = selfAttribute(src, def, at, n, lineage)) return a;
  // A nested def reads what the def around it holds where it is defined, by closure.
  TSNode statement{};
  TSNode outer = outerDef(def, &statement);
  if (ts_node_is_null(outer)) return std::nullopt;
  std::vector<std::string> closed;
  for (const std::string& n : names)
    if (closesOver(src, def, outer, statement, n)) closed.push_back(n);
  std::optional<std::string> v = valueNamed(src, outer, statement, closed, lineage);
  if (v && v->starts_with("self.") && !closesOver(src, def, outer, statement, "self"))
    return std::nullopt;
  return v;
}

std::string spelled(const rules::PythonRewriteRule& rule, facts::Yields yields,
                    const std::string& g) {
  if (!facts::isDerived(yields)) return g;
  auto t = rule.spell.find(yields);
  if (t == rule.spell.end()) return "";
  std::string out = t->second;
  support::replaceAll(out, "{g}", g);
  return out;
}

std::string groupName(const rules::PythonRewriteRule& rule, const std::string& group) {
  std::string out = rule.group;
  support::replaceAll(out, "{group}", group);
  return out;
}

std::string builtIn(const PySource& src, TSNode def, const rules::PythonRewriteRule& rule) {
  if (ts_node_is_null(def)) return "";
  std::string found;
  statementsUnder(field<"body">(def), [&](TSNode s) {
    TSNode a = assignmentOf(s);
    if (!found.empty() || ts_node_is_null(a)) return;
    TSNode left = field<"left">(a), right = field<"right">(a);
    std::string name;
    if (is<"attribute">(left) && is<"identifier">(field<"object">(left)))
      name = src.text(field<"object">(left));
    else if (is<"identifier">(left) && is<"call">(right) &&
             namedChildren(field<"arguments">(right)).empty()) {
      std::string callee(src.text(field<"function">(right)));
      std::string last = callee.substr(callee.rfind('.') + 1);
      if (!last.empty() && std::isupper(static_cast<unsigned char>(last[0]))) name = src.text(left);
    }
    for (const std::string& c : rule.collection)
      if (c == name) found = c;
  });
  return found;
}

std::optional<std::string> attributeFor(const rules::PythonRewriteRule& rule,
                                        const std::string& group) {
  if (rule.attributes.empty()) return group;
  auto a = rule.attributes.find(group);
  if (a == rule.attributes.end()) return std::nullopt;
  return a->second;
}

std::optional<std::string> groupAt(const PySource& src, TSNode def, TSNode at,
                                   const std::string& group, const rules::PythonRewriteRule& rule,
                                   const Lineage* lineage) {
  std::vector<std::string> collections;
  std::vector<std::string> built{builtIn(src, def, rule)};
  TSNode statement{};
  for (TSNode d = outerDef(def, &statement); !ts_node_is_null(d); d = outerDef(d, &statement))
    built.push_back(builtIn(src, d, rule));  // what a nested def would read by closure
  for (const std::string& c : rule.collection)
    if (std::find(built.begin(), built.end(), c) == built.end()) collections.push_back(c);
  if (group.empty()) return valueNamed(src, def, at, collections, lineage);
  std::vector<std::string> names{groupName(rule, group)};
  names.insert(names.end(), collections.begin(), collections.end());
  std::optional<std::string> v = valueNamed(src, def, at, names, lineage);
  if (!v || *v == names[0] || *v == "self." + names[0] || *v == "self._" + names[0]) return v;
  std::optional<std::string> attribute = attributeFor(rule, group);
  if (!attribute) return std::nullopt;
  return *v + "." + *attribute;
}

std::optional<std::string> keywordAttribute(const facts::Read& r,
                                            const rules::PythonRewriteRule& rule) {
  std::optional<std::string> key = rules::keywordKey(r.arguments, rule.droppedKeywords);
  if (!key) return std::nullopt;
  if (key->empty()) return "";
  // The map says what group a call returns, so a size or a rank too; a source rank with
  // arguments may read other ranks (Megatron's get_data_parallel_src_rank(
  // with_context_parallel=True) is the replicate group's first, not dp_cp_gtp_remat's).
  if (r.yields == facts::Yields::SrcRank) return std::nullopt;
  auto g = rule.keywordAttributes.find(r.group);
  if (g == rule.keywordAttributes.end()) return std::nullopt;
  auto a = g->second.find(*key);
  if (a == g->second.end()) return std::nullopt;
  return a->second;
}

std::string heldValue(const facts::Read& r) {
  // A laundered read is named for its helper; what it reads is the global inside.
  const std::string& global = r.kind == facts::ReadKind::Laundered ? r.analysis.launders : r.name;
  if (r.yields == facts::Yields::Collection) return "a collection";
  if (r.yields == facts::Yields::State || r.kind == facts::ReadKind::GlobalState)
    return "the value of " + global;
  if (!r.group.empty()) return "the " + r.group + " group";
  return "what " + global + " gives";
}

std::string argumentsUnspelled(const facts::Read& r, const rules::PythonRewriteRule& rule) {
  std::string call = "the accessor is called with arguments (";
  for (size_t i = 0; i < r.arguments.size(); ++i) call += (i ? ", " : "") + r.arguments[i];
  call += ")";
  if (r.yields == facts::Yields::SrcRank)
    return call +
           ", and a source rank so read may be another group's first rank: the pack "
           "spells none";
  if (!rule.keywordAttributes.empty())
    return call + " that the pack maps to no attribute of the collection for " + heldValue(r) +
           " (rewrite.python.keyword_attributes)";
  return call + ", which may select another group than " + heldValue(r) +
         " a call without them returns, the only one the pack spells";
}

std::string unreachedSpelling(const PySource& src, const rules::PythonRewriteRule& rule,
                              facts::Yields yields) {
  auto t = rule.spell.find(yields);
  if (t == rule.spell.end() || t->second.rfind("{g}", 0) == 0) return "";
  const std::string dotted = t->second.substr(0, t->second.find('('));
  size_t dot = dotted.rfind('.');
  if (dot != std::string::npos &&
      importedAs(src, dotted.substr(0, dot), dotted.substr(dot + 1)) == dotted)
    return "";
  return dotted;
}

std::set<std::string> groupMethods(const rules::PythonRewriteRule& rule) {
  std::set<std::string> methods;
  for (const auto& [yields, spelling] : rule.spell)
    if (spelling.rfind("{g}.", 0) == 0 && spelling.find('(') != std::string::npos)
      methods.insert(spelling.substr(4, spelling.find('(') - 4));
  return methods;
}

namespace {

// The module whose import makes `fn` (an unreached spell function) reachable, or "".
std::string importFor(const PySource& src, const std::string& fn) {
  size_t last = fn.rfind('.');
  if (last == std::string::npos) return "";
  const std::string module = fn.substr(0, last);
  size_t first = module.find('.');
  if (first == std::string::npos) return "";
  const std::string top = module.substr(0, first), next = module.substr(first + 1);
  std::optional<std::string> bound = importedAs(src, top, next.substr(0, next.find('.')));
  return bound && *bound == top + "." + next.substr(0, next.find('.')) ? module : "";
}

}  // namespace

std::string spellingImport(const PySource& src, const rules::PythonRewriteRule& rule,
                           facts::Yields yields) {
  return importFor(src, unreachedSpelling(src, rule, yields));
}

std::string unspellableIn(const PySource& src, const rules::PythonRewriteRule& rule,
                          facts::Yields yields) {
  std::string fn = unreachedSpelling(src, rule, yields);
  return fn.empty() || !importFor(src, fn).empty() ? "" : fn;
}

}  // namespace gridlock::rewrite::py
