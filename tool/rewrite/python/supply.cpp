#include "rewrite/python/supply.h"

#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply_forward.h"
#include "rewrite/python/ts_node.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace gridlock::rewrite::py {
namespace {

using ts::is;
using ts::namedChildren;

const facts::SiteFact* siteOf(const index::Inventory& inv, const facts::Read& r) {
  for (const auto& s : inv.program.sites)
    if (s.file == r.file && s.line == r.line && s.column == r.column) return &s;
  return nullptr;
}

// The fallback read inside the callee that a call leaving parameter `param` out reaches.
const facts::Read* fallbackOf(const index::Inventory& inv, const facts::SiteFact& site) {
  for (const auto& r : inv.reads)
    if (r.guard == facts::Guard::Fallback && r.guardFunction == site.calleeUsr &&
        r.guardParam >= 0 && static_cast<size_t>(r.guardParam) < site.args.size()) {
      const facts::ArgFact& a = site.args[r.guardParam];
      if (a.passed == facts::Passed::Omitted || a.supplied == facts::Supplied::Null) return &r;
    }
  return nullptr;
}

// Whether every node under `n` but `read` is an operator, parentheses or a literal: the
// expression means at a call what it means in the callee.
bool literalsAround(TSNode n, TSNode read) {
  if (ts::same(n, read)) return true;
  if (!(is<"binary_operator">(n) || is<"comparison_operator">(n) || is<"unary_operator">(n) ||
        is<"boolean_operator">(n) || is<"not_operator">(n) || is<"parenthesized_expression">(n) ||
        is<"tuple">(n) || is<"list">(n) || is<"expression_list">(n) || is<"integer">(n) ||
        is<"float">(n) || is<"true">(n) || is<"false">(n) || is<"none">(n)))
    return false;
  for (TSNode c : namedChildren(n))
    if (!literalsAround(c, read)) return false;
  return true;
}

}  // namespace

std::optional<std::string> fallbackValue(PyState& s, const facts::Read& f, const std::string& read,
                                         const std::string& group, std::string* why) {
  auto place = s.place(f);
  if (!place) {
    *why = "the fallback at " + at(f) + " is not where the scan saw it";
    return std::nullopt;
  }
  const PySource& src = *place->src;
  TSNode node = place->node;
  // What the read gives the parameter: its assignment's value, or what the def returns in its
  // place (`if g is not None: return g`, then `return <read>`).
  TSNode statement = PySource::statementOf(node), given{};
  TSNode a = assignmentOf(statement);
  if (!ts_node_is_null(a) && src.text(ts::field<"left">(a)) == f.holder)
    given = ts::unparen(ts::field<"right">(a));
  else if (is<"return_statement">(statement) && !namedChildren(statement).empty())
    given = ts::unparen(namedChildren(statement)[0]);
  if (ts_node_is_null(given)) {
    // The read is used otherwise where the parameter is missing (`all_reduce(x, group=<read>)`,
    // `flag = <read> > 1` beside `flag = g.size() > 1`): the parameter stands for what its
    // name says it holds, the group, whatever the read yields.
    std::string word = f.holder.substr(f.holder.find_last_of("_.") + 1);
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (f.yields == facts::Yields::Collection ? word == "collection"
                                              : (word == "group" || word == "pg") && !group.empty())
      return f.yields == facts::Yields::Collection ? read : group;
    *why = "the fallback at " + at(f) + " does not give " + f.holder +
           " the value it reads, and what " + f.holder + " holds instead is not known";
    return std::nullopt;
  }
  // `h = h or <x>`, `h = <x> if h is None else h`, `h = h if h is not None else <x>`: <x>.
  auto disjunction = [&](TSNode n) {
    return is<"boolean_operator">(n) && src.text(ts::field<"operator">(n)) == "or";
  };
  if (disjunction(given) && src.text(ts::field<"left">(given)) == f.holder)
    given = ts::unparen(ts::field<"right">(given));
  if (is<"conditional_expression">(given) && namedChildren(given).size() == 3) {
    std::vector<TSNode> parts = namedChildren(given);  // body, condition, else
    std::string c = squeezed(src.text(parts[1]));
    if (c == f.holder + " is None" && src.text(parts[2]) == f.holder)
      given = ts::unparen(parts[0]);
    else if (c == f.holder + " is not None" && src.text(parts[0]) == f.holder)
      given = ts::unparen(parts[2]);
  }
  if (ts::same(given, node)) return read;
  // `h = <read> or default`: a group, a collection or a size is never false, nor is what the
  // call passes for it, so the default is never taken (a rank may be 0).
  if (disjunction(given) && ts::same(ts::unparen(ts::field<"left">(given)), node) &&
      (f.yields == facts::Yields::Group || f.yields == facts::Yields::Collection ||
       f.yields == facts::Yields::Size))
    return read;
  std::string text(src.text(given));
  if (!literalsAround(given, node)) {
    *why = "the fallback at " + at(f) + " gives " + f.holder + " `" + squeezed(text) +
           "`, not the value it reads: what the call would pass for it is not known (pass it "
           "by hand)";
    return std::nullopt;
  }
  unsigned from = ts_node_start_byte(node) - ts_node_start_byte(given);
  return squeezed(text.replace(from, ts_node_end_byte(node) - ts_node_start_byte(node), read));
}

bool positional(const facts::SiteFact& site, int index, const PySource* callee,
                const facts::FunctionFact& fn) {
  for (int k = 0; k < index; ++k)
    if (site.args[k].passed != facts::Passed::Positional) return false;
  for (size_t k = index + 1; k < site.args.size(); ++k)
    if (site.args[k].passed != facts::Passed::Omitted) return false;
  if (!callee) return false;
  TSNode def = callee->defAt(fn.line);
  if (ts_node_is_null(def)) return false;
  std::vector<PyParam> ps = callee->params(def);
  // The facts count `self` as a parameter too, so indices agree.
  return static_cast<size_t>(index) < ps.size() && ps[index].kind == PyParam::Kind::Positional;
}

TSNode argumentListAt(const PySource& src, unsigned rparen) {
  TSNode n = src.covering(rparen, 1);
  return is<"argument_list">(n) ? n : TSNode{};
}

Insertion appendArgument(const PySource& src, TSNode args, const std::string& argument) {
  std::vector<TSNode> written = namedChildren(args);
  if (written.empty()) return {ts_node_start_byte(args) + 1, argument};
  TSNode last = written.back();
  unsigned end = ts_node_end_byte(last);
  const std::string& t = src.text();
  size_t after = end;
  while (after < t.size() && (t[after] == ' ' || t[after] == '\t')) ++after;
  bool trailingComma = after < t.size() && t[after] == ',';
  if (!trailingComma) return {end, ", " + argument};
  unsigned lastStart = ts_node_start_byte(last);
  bool ownLine = src.indentAt(lastStart).size() + src.lineStart(lastStart) == lastStart;
  if (ownLine)
    return {static_cast<unsigned>(after + 1), "\n" + src.indentAt(lastStart) + argument + ","};
  return {static_cast<unsigned>(after + 1), " " + argument + ","};
}

std::string supplyCall(PyState& s, size_t i) {
  const facts::Read& r = s.read(i);
  if (std::string why = s.closed(r.file); !why.empty()) return why;
  const facts::SiteFact* site = siteOf(s.inv, r);
  if (!site || site->rparen == 0) return "the call's arguments are not known";
  const facts::Read* fallback = fallbackOf(s.inv, *site);
  int p = fallback ? fallback->guardParam : -1;
  std::string param = fallback ? fallback->holder : "";
  if (!fallback) {  // the callee hands the parameter on to a helper's fallback
    ForwardedFallback f = forwardedFallback(s, *site);
    if (!f.why.empty()) return f.why;
    if (!f.read) return "no fallback of the callee is reached through this call";
    std::tie(fallback, p, param) = std::tie(f.read, f.param, f.name);
  }
  const rules::PythonRewriteRule* rule = s.rule(r);
  auto place = s.place(r.file, site->rparen, 1);
  if (!rule || !place) return "the call's file cannot be read";
  TSNode args = argumentListAt(*place->src, site->rparen);
  if (ts_node_is_null(args)) return "the call's argument list is not where the scan saw it";
  if (ts_node_is_null(place->def)) return "at module level, where nothing holds a group";
  if (fallback->kind == facts::ReadKind::GlobalState)
    return "the callee's fallback reads " + fallback->name +
           ", module state: Supply passes a group or a collection only";
  bool collection = fallback->yields == facts::Yields::Collection;
  const std::string group = collection ? "" : fallback->group;
  std::optional<std::string> value = groupAt(*place->src, place->def, args, group, *rule);
  if (auto t = s.threaded.find({r.file, ts_node_start_byte(place->def)});
      !value && t != s.threaded.end() && t->second.count(group))
    value = t->second.at(group);  // the parameter Thread gave the def
  if (!value) return "nothing in scope holds " + heldValue(*fallback);
  // The parameter takes what the fallback read yields: a size parameter gets `{g}.size()`.
  std::string passed = spelled(*rule, fallback->yields, *value);
  if (passed.empty())
    return "the pack does not say how to spell a " + std::string(facts::spell(fallback->yields)) +
           " (rewrite.python.spell)";
  // What the fallback gives the parameter, with the read spelled from what the call holds.
  std::string why;
  const std::string held = collection ? "" : *value;
  value = fallbackValue(s, *fallback, passed, held, &why);
  if (!value) return why;
  const facts::ArgFact& a = site->args[p];
  if (a.supplied == facts::Supplied::Null && a.length > 0) {
    // `helper(x, None)`: the None becomes the group.
    s.edit(r.file, a.offset, a.length, *value, facts::Strategy::Supply, at(r) + " supply");
  } else if (a.passed == facts::Passed::Omitted) {
    auto fn = s.inv.program.functions.find(site->calleeUsr);
    if (fn == s.inv.program.functions.end()) return "the callee's parameters are not known";
    bool pos = positional(*site, p, s.sources.get(fn->second.file), fn->second);
    Insertion ins = appendArgument(*place->src, args, pos ? *value : param + "=" + *value);
    s.edit(r.file, ins.offset, 0, ins.text, facts::Strategy::Supply, at(r) + " supply");
  } else {
    return "the argument is passed through *args or **kwargs";
  }
  s.spelledIn(r.file, *rule, fallback->yields);
  s.apply(i, facts::Strategy::Supply, "passes " + *value + " as " + param);
  ++s.tally(facts::Strategy::Supply).reads;
  ++s.tally(facts::Strategy::Supply).places;
  return "";
}

}  // namespace gridlock::rewrite::py
