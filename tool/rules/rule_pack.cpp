#include "rules/rule_pack.h"

#include "rules/forward_declaration.h"
#include "rules/pack_lookup.h"
#include "rules/pack_reader.h"
#include "rules/python_rewrite_rules.h"
#include "rules/python_rules.h"
#include "rules/source_pick.h"
#include "support/file_io.h"
#include "support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <set>

namespace gridlock::rules {
namespace {

using nlohmann::json;

using support::identChar;
using support::isIdentifier;

using Reader = PackReader;

std::string lineColumnOf(const std::string& text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

json parseJson(const std::string& text, const std::string& path) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports the byte just past the problem; turn it into line:column, and drop its
    // "[json.exception...] parse error at line L, column C: " prefix.
    std::string what = e.what();
    size_t pos = what.find(": ", what.find("parse error"));
    throw RuleError(path + ":" + lineColumnOf(text, e.byte ? e.byte - 1 : 0) +
                    ": invalid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
}

// `extends`: another pack's types, accessors and globals (paths relative to this file, names
// beside it, then shipped: rules/pack_lookup.h); this pack's scope applies to all of them.
// Returns the bases' rewrite keys, first base first.
std::vector<RewriteRules> readExtends(const Reader& r, const json& root, const std::string& path,
                                      int depth, RulePack& pack) {
  std::vector<RewriteRules> out;
  std::vector<std::string> bases = r.strings(root, "extends", "");
  size_t slash = path.rfind('/');
  PackAnchor beside{slash == std::string::npos ? "" : path.substr(0, slash), "beside the pack"};
  for (size_t i = 0; i < bases.size(); ++i) {
    std::string at = "/extends/" + std::to_string(i);
    if (depth > 8) r.fail(at, "extends nests too deep (a cycle?)");
    std::string base;
    try {
      base = resolvePack(bases[i], beside, shippedPackDirs());
    } catch (const RuleError& e) {
      r.fail(at, e.what());
    }
    RulePack b = loadRulePack(base, depth + 1);
    for (auto& t : b.types) pack.types.push_back(std::move(t));
    for (auto& a : b.accessors) pack.accessors.push_back(std::move(a));
    for (auto& g : b.globals) pack.globals.push_back(std::move(g));
    for (auto& a : b.pythonAccessors) pack.pythonAccessors.push_back(std::move(a));
    for (auto& g : b.pythonGlobals) pack.pythonGlobals.push_back(std::move(g));
    for (auto& st : b.setters) pack.setters.push_back(std::move(st));
    out.push_back(std::move(b.rewrite));
  }
  return out;
}

CollapseRule readCollapse(const Reader& r, const json& co) {
  const std::string at = "/rewrite/collapse";
  r.object(co, at, {"lookup", "type", "name", "include"});
  CollapseRule c;
  c.lookup = r.string(co, "lookup", at, true);
  c.name = r.string(co, "name", at, true);
  if (!isIdentifier(c.name)) r.fail(at + "/name", "expected an identifier, got \"" + c.name + "\"");
  std::string type = r.string(co, "type", at, false);
  if (!type.empty()) c.type = type;
  c.include = r.string(co, "include", at, false);
  return c;
}

// thread.forward_declaration: `class ns::T` or `struct T`, declared in a header instead of
// the include when the header only takes the parameter by reference or pointer.
std::string readForwardDeclaration(const Reader& r, const json& th, const std::string& include,
                                   const std::string& at) {
  std::string d = r.string(th, "forward_declaration", at, false);
  if (d.empty()) return d;
  if (forwardDeclarationLines(d).empty())
    r.fail(at + "/forward_declaration",
           "expected \"class NAME\" or \"struct NAME\" with NAME a qualified identifier, got \"" +
               d + "\"");
  if (include.empty())
    r.fail(at + "/forward_declaration",
           "a forward declaration stands in for \"include\", which this rule lacks");
  return d;
}

// thread.store and thread.member: whether a method Thread cannot change keeps the value in a
// member, and the member's name (default `<name>_`).
void readStore(const Reader& r, const json& th, const std::string& at, const std::string& name,
               bool& store, std::string& member) {
  store = r.boolean(th, "store", at, true);
  member = r.string(th, "member", at, false);
  if (member.empty()) member = name + "_";
  if (!isIdentifier(member))
    r.fail(at + "/member", "expected a member name (an identifier), got \"" + member + "\"");
  if (member == name)
    r.fail(at + "/member",
           "the member is the parameter's own name (" + name +
               "): the constructor's initializer would read the parameter, not the member");
}

ThreadRule readThread(const Reader& r, const json& th) {
  using facts::Yields;
  const std::string at = "/rewrite/thread";
  r.object(th, at,
           {"type", "name", "yields", "group", "pointer", "edge", "include", "position",
            "forward_declaration", "hoist", "store", "member"});
  ThreadRule t;
  t.include = r.string(th, "include", at, false);
  t.forwardDeclaration = readForwardDeclaration(r, th, t.include, at);
  t.type = r.string(th, "type", at, true);
  t.name = r.string(th, "name", at, true);
  t.yields = r.choice(th, "yields", at, {Yields::Group, Yields::Collection}, {Yields::Group});
  t.group = r.string(th, "group", at, false);
  t.edge = r.string(th, "edge", at, true);
  t.position = r.choice(th, "position", at,
                        {facts::ThreadPosition::BeforeDefaults, facts::ThreadPosition::Last},
                        {facts::ThreadPosition::BeforeDefaults});
  if (t.yields == Yields::Group && t.group.empty())
    r.fail(at, "a thread parameter that yields a group needs \"group\" (the group it holds)");
  t.pointer = r.boolean(th, "pointer", at, false);
  t.hoist = r.boolean(th, "hoist", at, false);
  readStore(r, th, at, t.name, t.store, t.member);
  return t;
}

void readSpell(const Reader& r, const json& sp, RewriteRules& out) {
  using facts::Yields;
  r.object(sp, "/rewrite/spell", {"group", "size", "rank", "src_rank"});
  for (auto e = sp.begin(); e != sp.end(); ++e) {
    std::string t = r.string(sp, e.key(), "/rewrite/spell", true);
    if (t.find("{g}") == std::string::npos)
      r.fail("/rewrite/spell/" + e.key(), "the template must name the group as {g}");
    out.spell[*facts::parse<Yields>(e.key())] = t;
  }
}

// "const GlobalEnv &env" -> {"const GlobalEnv &", "env"}: the trailing identifier is the name.
std::pair<std::string, std::string> splitParameter(const Reader& r, const std::string& param,
                                                   const std::string& at) {
  size_t end = param.find_last_not_of(' ');
  if (end == std::string::npos) end = 0;
  size_t begin = end + 1;
  while (begin > 0 && identChar(param[begin - 1])) --begin;
  std::string name = param.substr(begin, end + 1 - begin);
  std::string type = param.substr(0, begin);
  while (!type.empty() && type.back() == ' ') type.pop_back();
  if (!isIdentifier(name) || type.empty())
    r.fail(at,
           "expected a parameter declaration (\"const GlobalEnv &env\"), got \"" + param + "\"");
  if (type.back() != '&' && type.back() != '*')
    r.fail(at,
           "the env is passed by reference or pointer (\"const T &env\", \"T *env\"), got "
           "\"" +
               param + "\": a copy would not see its changes");
  return {type, name};
}

// rewrite.env: the object, its parameter, what an edge passes, and a method per group and
// per value derived from it.
EnvRule readEnv(const Reader& r, const json& en) {
  using facts::Yields;
  const std::string at = "/rewrite/env";
  r.object(en, at,
           {"type", "parameter", "edge", "include", "forward_declaration", "hoist", "store",
            "member", "methods"});
  EnvRule e;
  e.type = r.string(en, "type", at, true);
  e.parameter = r.string(en, "parameter", at, true);
  readStore(r, en, at, splitParameter(r, e.parameter, at + "/parameter").second, e.store, e.member);
  e.edge = r.string(en, "edge", at, true);
  e.include = r.string(en, "include", at, false);
  e.forwardDeclaration = readForwardDeclaration(r, en, e.include, at);
  e.hoist = r.boolean(en, "hoist", at, false);
  auto ms = en.find("methods");
  if (ms == en.end()) r.fail(at, "missing required key \"methods\"");
  if (!ms->is_object() || ms->empty())
    r.fail(at + "/methods",
           "expected an object naming each group the env holds, e.g. "
           "{\"tp\": {\"size\": \"{env}.tensor_parallel_size()\"}}");
  for (auto g = ms->begin(); g != ms->end(); ++g) {
    const std::string gat = at + "/methods/" + g.key();
    if (!isIdentifier(g.key())) r.fail(gat, "expected a group name (an identifier)");
    r.object(*g, gat, {"group", "size", "rank", "src_rank"});
    if (g->empty()) r.fail(gat, "names no method (group, size, rank, src_rank)");
    for (auto v = g->begin(); v != g->end(); ++v) {
      std::string t = r.string(*g, v.key(), gat, true);
      if (t.find("{env}") == std::string::npos)
        r.fail(gat + "/" + v.key(), "the template must name the env as {env}");
      e.methods[g.key()][*facts::parse<Yields>(v.key())] = t;
    }
  }
  return e;
}

// The thread and collapse rules rewrite.env implies: the env threaded as `parameter`, edges
// passing `edge`; where a function cannot take it, one local of the same declaration.
void envRules(const EnvRule& e, RewriteRules& out) {
  Reader quiet("");
  auto [type, name] = splitParameter(quiet, e.parameter, "");
  out.thread.type = type;
  out.thread.name = name;
  out.thread.yields = facts::Yields::Collection;
  out.thread.pointer = type.back() == '*';
  out.thread.env = true;
  out.thread.edge = e.edge;
  out.thread.include = e.include;
  out.thread.forwardDeclaration = e.forwardDeclaration;
  out.thread.hoist = e.hoist;
  out.thread.store = e.store;
  out.thread.member = e.member;
  out.collapse.lookup = e.edge;
  out.collapse.type = type;
  out.collapse.name = name;
  out.collapse.include = e.include;
}

// `rewrite`: how the rewriter spells what replaces a read (docs/rewrite.md).
RewriteRules readRewrite(const Reader& r, const json& rw) {
  r.object(rw, "/rewrite", {"spell", "include", "require", "thread", "collapse", "env", "python"});
  RewriteRules out;
  if (auto py = rw.find("python"); py != rw.end()) out.python = readPythonRewrite(r, *py);
  if (auto co = rw.find("collapse"); co != rw.end()) out.collapse = readCollapse(r, *co);
  if (auto th = rw.find("thread"); th != rw.end()) out.thread = readThread(r, *th);
  if (auto en = rw.find("env"); en != rw.end()) {
    for (const char* k : {"thread", "collapse"})
      if (rw.contains(k))
        r.fail(std::string("/rewrite/") + k,
               "rewrite.env threads and collapses the env itself (its \"parameter\" and "
               "\"edge\"): leave out rewrite." +
                   std::string(k));
    out.env = readEnv(r, *en);
    envRules(out.env, out);
  }
  out.spellInclude = r.string(rw, "include", "/rewrite", false);
  if (auto sp = rw.find("spell"); sp != rw.end()) readSpell(r, *sp, out);
  if (auto rq = rw.find("require"); rq != rw.end()) {
    r.object(*rq, "/rewrite/require", {"spell", "include"});
    out.requireSpell = r.string(*rq, "spell", "/rewrite/require", true);
    if (out.requireSpell.find("{message}") == std::string::npos)
      r.fail("/rewrite/require/spell", "the template must carry the message as {message}");
    out.requireInclude = r.string(*rq, "include", "/rewrite/require", false);
  }
  return out;
}

Scope readScope(const Reader& r, const json& sc) {
  r.object(sc, "/scope", {"include", "exclude", "edges"});
  Scope out;
  if (sc.contains("include")) out.include = r.strings(sc, "include", "/scope");
  out.exclude = r.strings(sc, "exclude", "/scope");
  out.edges = r.strings(sc, "edges", "/scope");
  return out;
}

void readTypes(const Reader& r, const json& root, RulePack& pack) {
  using facts::Yields;
  const json& types = r.array(root, "types", "");
  for (size_t i = 0; i < types.size(); ++i) {
    std::string at = "/types/" + std::to_string(i);
    r.object(types[i], at, {"type", "yields", "group", "groups"});
    pack.types.push_back(
        {r.string(types[i], "type", at, true),
         r.choice(types[i], "yields", at, {Yields::Group, Yields::Collection, Yields::State}),
         r.string(types[i], "group", at, false), r.strings(types[i], "groups", at), false});
  }
}

// The rule names a pack already holds (its bases'), so a second rule for one is an error.
std::set<std::string> ruleNames(const RulePack& pack) {
  std::set<std::string> out;
  for (const auto& a : pack.accessors)
    out.insert(a.function.empty() ? "macro " + a.macro : a.function);
  for (const auto& g : pack.globals) out.insert(g.variable);
  for (const auto& a : pack.pythonAccessors) out.insert(pythonRuleName(a));
  for (const auto& g : pack.pythonGlobals) out.insert(pythonRuleName(g));
  for (const auto& st : pack.setters) out.insert(setterRuleName(st));
  return out;
}

// Whether `variable` is global state of the pack (its own globals and its bases'): what a
// setter's `writes` must name.
bool isGlobalOf(const RulePack& pack, const std::string& variable) {
  for (const auto& g : pack.globals)
    if (g.variable == variable) return true;
  for (const auto& g : pack.pythonGlobals) {
    if (g.variable == variable) return true;
    size_t dot = variable.rfind('.');
    if (!g.module.empty() && dot != std::string::npos && variable.substr(0, dot) == g.module &&
        std::find(g.except.begin(), g.except.end(), variable.substr(dot + 1)) == g.except.end())
      return true;
  }
  return false;
}

// `setters[]`: a C++ function (`function`, `writes` required) or a Python function (`python`,
// `writes` optional).
SetterRule readSetter(const Reader& r, const json& st, const std::string& at,
                      const RulePack& pack) {
  SetterRule rule;
  if (st.is_object() && st.contains("python")) {
    r.object(st, at, {"python", "writes"});
    rule.python = readPythonName(r, st, "python", at);
    if (st.contains("writes")) rule.writes = readPythonName(r, st, "writes", at);
  } else {
    r.object(st, at, {"function", "writes"});
    rule.function = r.string(st, "function", at, true);
    rule.writes = r.string(st, "writes", at, true);
  }
  if (!rule.writes.empty() && !isGlobalOf(pack, rule.writes))
    r.fail(at + "/writes", rule.writes +
                               " is no global state of this pack: name it in \"globals\" (or "
                               "its module in a \"python_module\" rule)");
  return rule;
}

AccessorRule readAccessor(const Reader& r, const json& a, const std::string& at) {
  using facts::ReadKind;
  r.object(a, at, {"function", "macro", "kind", "group", "yields", "spell", "env"});
  AccessorRule rule;
  rule.function = r.string(a, "function", at, false);
  rule.macro = r.string(a, "macro", at, false);
  if (rule.function.empty() == rule.macro.empty())
    r.fail(at,
           "exactly one of \"function\", \"macro\", \"python\" or \"python_family\" is "
           "required");
  r.accessorKind(a, at, rule.kind, rule.group, rule.yields);
  rule.spell = r.string(a, "spell", at, false);
  if (!rule.spell.empty() && rule.spell.find("{g}") == std::string::npos)
    r.fail(at + "/spell", "the template must name the group as {g}");
  rule.env = r.string(a, "env", at, false);
  if (!rule.env.empty() && rule.env.find("{env}") == std::string::npos)
    r.fail(at + "/env", "the template must name the env as {env}");
  if (!rule.env.empty() && rule.kind == ReadKind::Shim)
    r.fail(at + "/env", "a shim yields the env itself: it has no method to name");
  return rule;
}

// globals[].thread: the variable threaded as a parameter, fields read through it by their names.
ThreadRule readStateThread(const Reader& r, const json& th, const GlobalRule& g,
                           const std::string& at) {
  r.object(th, at,
           {"type", "name", "edge", "include", "position", "forward_declaration", "hoist", "store",
            "member"});
  ThreadRule t;
  t.yields = facts::Yields::State;
  t.group = g.type;
  t.type = r.string(th, "type", at, true);
  size_t colon = g.variable.rfind("::");
  t.name = r.string(th, "name", at, false);
  if (t.name.empty())
    t.name = colon == std::string::npos ? g.variable : g.variable.substr(colon + 2);
  if (!isIdentifier(t.name))
    r.fail(at + "/name", "expected a parameter name (an identifier), got \"" + t.name + "\"");
  t.edge = r.string(th, "edge", at, false);
  if (t.edge.empty()) t.edge = g.variable;
  t.include = r.string(th, "include", at, false);
  t.forwardDeclaration = readForwardDeclaration(r, th, t.include, at);
  t.position = r.choice(th, "position", at,
                        {facts::ThreadPosition::BeforeDefaults, facts::ThreadPosition::Last},
                        {facts::ThreadPosition::BeforeDefaults});
  t.pointer = shapeOfTypeName(t.type).holder == facts::Holder::Pointer;
  if (!t.pointer && t.type.find('&') == std::string::npos)
    r.fail(at + "/type",
           "a threaded global is passed by reference or pointer (\"const T&\", "
           "\"T*\"), got \"" +
               t.type + "\": a copy would not see its writes");
  t.hoist = r.boolean(th, "hoist", at, false);
  if (t.hoist && t.edge == t.name)
    r.fail(at + "/hoist",
           "the edge is the parameter's own name (" + t.name +
               "): a local of that name would initialise itself; name another edge or leave "
               "out hoist");
  readStore(r, th, at, t.name, t.store, t.member);
  return t;
}

GlobalRule readGlobal(const Reader& r, const json& g, const std::string& at) {
  r.object(g, at, {"variable", "kind", "field", "type", "thread"});
  GlobalRule rule;
  rule.variable = r.string(g, "variable", at, true);
  r.choice(g, "kind", at, {facts::ReadKind::GlobalState}, {facts::ReadKind::GlobalState});
  rule.field = r.string(g, "field", at, false);
  rule.type = r.string(g, "type", at, false);
  if (!rule.type.empty() && rule.field.empty() && !g.contains("thread"))
    r.fail(at,
           "\"type\" names the per-model state type whose \"field\" replaces the "
           "global (or that a threaded global holds): \"field\" or \"thread\" is "
           "missing");
  if (!rule.field.empty() && !isIdentifier(rule.field))
    r.fail(at + "/field", "expected a field name (an identifier), got \"" + rule.field + "\"");
  if (auto th = g.find("thread"); th != g.end()) {
    if (!rule.field.empty())
      r.fail(at + "/thread",
             "a global is either read through a per-model \"field\" or "
             "threaded whole, not both");
    rule.thread = readStateThread(r, *th, rule, at + "/thread");
  }
  return rule;
}

void readRules(const Reader& r, const json& root, RulePack& pack) {
  std::set<std::string> seen = ruleNames(pack);
  auto keep = [&](auto&& rule, auto& list, const std::string& id, const std::string& at) {
    if (!seen.insert(id).second) r.fail(at, "duplicate rule for " + id);
    list.push_back(std::move(rule));
  };
  const json& accessors = r.array(root, "accessors", "");
  for (size_t i = 0; i < accessors.size(); ++i) {
    std::string at = "/accessors/" + std::to_string(i);
    if (isPythonRule(accessors[i], {"python", "python_family"})) {
      PythonAccessorRule rule = readPythonAccessor(r, accessors[i], at);
      keep(std::move(rule), pack.pythonAccessors, pythonRuleName(rule), at);
      continue;
    }
    AccessorRule rule = readAccessor(r, accessors[i], at);
    std::string id = rule.function.empty() ? "macro " + rule.macro : rule.function;
    keep(std::move(rule), pack.accessors, id, at);
  }
  const json& globals = r.array(root, "globals", "");
  for (size_t i = 0; i < globals.size(); ++i) {
    std::string at = "/globals/" + std::to_string(i);
    if (isPythonRule(globals[i], {"python", "python_module"})) {
      PythonGlobalRule rule = readPythonGlobal(r, globals[i], at);
      keep(std::move(rule), pack.pythonGlobals, pythonRuleName(rule), at);
      continue;
    }
    GlobalRule rule = readGlobal(r, globals[i], at);
    keep(std::move(rule), pack.globals, rule.variable, at);
  }
  const json& setters = r.array(root, "setters", "");
  for (size_t i = 0; i < setters.size(); ++i) {
    std::string at = "/setters/" + std::to_string(i);
    SetterRule rule = readSetter(r, setters[i], at, pack);
    std::string id = setterRuleName(rule);
    if (pack.accessors.end() != std::find_if(pack.accessors.begin(), pack.accessors.end(),
                                             [&](const AccessorRule& a) {
                                               return !rule.function.empty() &&
                                                      a.function == rule.function;
                                             }) ||
        std::any_of(pack.pythonAccessors.begin(), pack.pythonAccessors.end(),
                    [&](const PythonAccessorRule& a) {
                      return !rule.python.empty() && a.name == rule.python;
                    }))
      r.fail(at, id + " is an accessor of this pack too: a function reads or writes, not both");
    keep(std::move(rule), pack.setters, id, at);
  }
}

// What this pack's `rewrite` leaves unsaid, the packs it extends say (first base wins).
void inheritRewrite(RewriteRules& own, const std::vector<RewriteRules>& bases) {
  for (const auto& b : bases) {
    for (const auto& [k, v] : b.spell) own.spell.emplace(k, v);
    if (own.spellInclude.empty()) own.spellInclude = b.spellInclude;
    if (own.thread.type.empty()) own.thread = b.thread;
    if (own.collapse.lookup.empty()) own.collapse = b.collapse;
    if (own.env.type.empty()) own.env = b.env;
    if (own.python.empty() && own.python.stateObjects.empty()) own.python = b.python;
    if (own.requireSpell.empty()) {
      own.requireSpell = b.requireSpell;
      own.requireInclude = b.requireInclude;
    }
  }
}

// rewrite.python.state objects: every variable of the module the pack names (a global, what a
// setter writes, what a getter returns) is a field of the class, when the fields are given.
void checkStateFields(const Reader& r, const RulePack& pack) {
  for (const auto& [module, state] : pack.rewrite.python.stateObjects) {
    if (state.fields.empty()) continue;
    std::set<std::string> named;
    for (const auto& g : pack.pythonGlobals) named.insert(g.variable);
    for (const auto& st : pack.setters) named.insert(st.writes);
    for (const auto& a : pack.pythonAccessors) named.insert(a.returns);
    for (const std::string& v : named) {
      size_t dot = v.rfind('.');
      if (dot == std::string::npos || v.substr(0, dot) != module) continue;
      std::string field = v.substr(dot + 1);
      if (!state.fields.count(field))
        r.fail("/rewrite/python/state/" + module + "/fields",
               "names no field \"" + field + "\", a state variable of " + module +
                   " the pack names (" + v + "): every state variable is a field");
    }
  }
}

}  // namespace

RulePack parseRulePack(const std::string& text, const std::string& path, int depth) {
  json root = parseJson(text, path);
  Reader r(path);
  r.object(root, "",
           {"$schema", "name", "description", "extends", "scope", "public_headers", "types",
            "accessors", "globals", "setters", "rewrite", "python"});
  r.string(root, "$schema", "", false);  // for editors (share/gridlock/schema); else ignored
  RulePack pack;
  pack.path = path;
  pack.name = r.string(root, "name", "", true);
  std::vector<RewriteRules> baseRewrites = readExtends(r, root, path, depth, pack);
  if (auto it = root.find("rewrite"); it != root.end()) pack.rewrite = readRewrite(r, *it);
  if (auto it = root.find("scope"); it != root.end()) pack.scope = readScope(r, *it);
  pack.publicHeaders = r.strings(root, "public_headers", "");
  if (auto it = root.find("python"); it != root.end()) pack.python = readPythonCounting(r, *it);
  const size_t baseTypes = pack.types.size();
  readTypes(r, root, pack);
  if (const EnvRule& e = pack.rewrite.env; !e.type.empty()) {
    // The env is a collection of the groups its methods name; a base pack's env came with
    // its own type rule.
    for (size_t i = baseTypes; i < pack.types.size(); ++i)
      if (pack.types[i].type == e.type)
        r.fail("/types/" + std::to_string(i - baseTypes),
               e.type + " is rewrite.env's type, which says what it holds: leave it out of types");
    TypeRule t{e.type, facts::Yields::Collection, "", {}, true};
    for (const auto& [g, values] : e.methods) t.groups.push_back(g);
    pack.types.push_back(std::move(t));
  }
  const size_t baseAccessors = pack.accessors.size();
  readRules(r, root, pack);
  inheritRewrite(pack.rewrite, baseRewrites);
  checkStateFields(r, pack);
  for (size_t i = baseAccessors; i < pack.accessors.size(); ++i) {
    const AccessorRule& a = pack.accessors[i];
    if (a.env.empty()) continue;
    // An env method with no env to call it on would never be used: say so instead.
    if (pack.rewrite.env.type.empty())
      r.fail("/accessors/" + std::to_string(i - baseAccessors) + "/env",
             "names a method of the env, but the pack has no rewrite.env (nor a pack it extends)");
    // The env answers for the accessor's group through that method.
    for (TypeRule& t : pack.types)
      if (t.env && t.type == pack.rewrite.env.type &&
          std::find(t.groups.begin(), t.groups.end(), a.group) == t.groups.end())
        t.groups.push_back(a.group);
  }
  if (pack.accessors.empty() && pack.globals.empty() && pack.pythonAccessors.empty() &&
      pack.pythonGlobals.empty() && pack.setters.empty())
    r.fail("", "the pack has no \"accessors\" and no \"globals\": it would find nothing");
  return pack;
}

RulePack loadRulePack(const std::string& path, int depth) {
  std::optional<std::string> text = support::readFile(path);
  if (!text) throw RuleError(path + ": cannot read rule pack");
  return parseRulePack(*text, path, depth);
}

}  // namespace gridlock::rules
