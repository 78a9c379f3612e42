#include "rules/rule_pack.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>

namespace gridlock::rules {
namespace {

using nlohmann::json;

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// Reads a JSON value while remembering where it is, so every error names its JSON path.
class Reader {
 public:
  Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw RuleError(file_ + ": " + (where.empty() ? "/" : where) + ": " + what);
  }

  const json& object(const json& j, const std::string& where,
                     std::initializer_list<const char*> allowed) const {
    if (!j.is_object()) fail(where, "expected an object, got " + std::string(j.type_name()));
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool known = std::any_of(allowed.begin(), allowed.end(),
                               [&](const char* k) { return it.key() == k; });
      if (!known) {
        std::string list;
        for (const char* k : allowed) list += std::string(list.empty() ? "" : ", ") + k;
        fail(where + "/" + it.key(), "unknown key (allowed: " + list + ")");
      }
    }
    return j;
  }

  std::string string(const json& j, const std::string& key, const std::string& where,
                     bool required) const {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) fail(where, "missing required key \"" + key + "\"");
      return {};
    }
    if (!it->is_string() || it->get<std::string>().empty())
      fail(where + "/" + key, "expected a non-empty string");
    return it->get<std::string>();
  }

  std::string oneOf(const json& j, const std::string& key, const std::string& where,
                    std::initializer_list<const char*> values, const std::string& dflt) const {
    std::string v = string(j, key, where, dflt.empty());
    if (v.empty()) return dflt;
    for (const char* ok : values)
      if (v == ok) return v;
    std::string list;
    for (const char* ok : values) list += std::string(list.empty() ? "" : ", ") + "\"" + ok + "\"";
    fail(where + "/" + key, "expected one of " + list + "; got \"" + v + "\"");
  }

  std::vector<std::string> strings(const json& j, const std::string& key,
                                   const std::string& where) const {
    std::vector<std::string> out;
    auto it = j.find(key);
    if (it == j.end()) return out;
    if (!it->is_array()) fail(where + "/" + key, "expected an array of strings");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string())
        fail(where + "/" + key + "/" + std::to_string(i), "expected a string");
      out.push_back((*it)[i].get<std::string>());
    }
    return out;
  }

  const json& array(const json& j, const std::string& key, const std::string& where) const {
    static const json empty = json::array();
    auto it = j.find(key);
    if (it == j.end()) return empty;
    if (!it->is_array()) fail(where + "/" + key, "expected an array");
    return *it;
  }

 private:
  std::string file_;
};

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

}  // namespace

RulePack parseRulePack(const std::string& text, const std::string& path, int depth) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports the byte just past the problem; turn it into line:column.
    // Drop nlohmann's "[json.exception...] parse error at line L, column C: " prefix.
    std::string what = e.what();
    size_t pos = what.find(": ", what.find("parse error"));
    throw RuleError(path + ":" + lineColumnOf(text, e.byte ? e.byte - 1 : 0) +
                    ": invalid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
  Reader r(path);
  r.object(root, "", {"name", "description", "extends", "scope", "public_headers", "types",
                      "accessors", "globals", "rewrite"});

  RulePack pack;
  pack.path = path;
  pack.name = r.string(root, "name", "", true);

  // `extends`: take another pack's types, accessors and globals (paths relative to this
  // file); this pack's scope applies to all of them.
  std::vector<std::string> bases = r.strings(root, "extends", "");
  std::vector<RewriteRules> baseRewrites;
  for (size_t i = 0; i < bases.size(); ++i) {
    std::string base = bases[i];
    if (!base.empty() && base[0] != '/') {
      size_t slash = path.rfind('/');
      base = (slash == std::string::npos ? "" : path.substr(0, slash + 1)) + base;
    }
    if (depth > 8) r.fail("/extends/" + std::to_string(i), "extends nests too deep (a cycle?)");
    RulePack b = loadRulePack(base, depth + 1);
    for (auto& t : b.types) pack.types.push_back(std::move(t));
    for (auto& a : b.accessors) pack.accessors.push_back(std::move(a));
    for (auto& g : b.globals) pack.globals.push_back(std::move(g));
    baseRewrites.push_back(std::move(b.rewrite));
  }

  // `rewrite`: this pack's keys first, then what the packs it extends say (first base wins).
  if (auto it = root.find("rewrite"); it != root.end()) {
    r.object(*it, "/rewrite", {"spell", "include", "require", "thread", "collapse"});
    if (auto co = it->find("collapse"); co != it->end()) {
      const std::string at = "/rewrite/collapse";
      r.object(*co, at, {"lookup", "type", "name", "include"});
      CollapseRule& c = pack.rewrite.collapse;
      c.lookup = r.string(*co, "lookup", at, true);
      c.name = r.string(*co, "name", at, true);
      if (!isIdentifier(c.name)) r.fail(at + "/name", "expected an identifier, got \"" + c.name + "\"");
      std::string type = r.string(*co, "type", at, false);
      if (!type.empty()) c.type = type;
      c.include = r.string(*co, "include", at, false);
    }
    if (auto th = it->find("thread"); th != it->end()) {
      const std::string at = "/rewrite/thread";
      r.object(*th, at,
               {"type", "name", "yields", "group", "pointer", "edge", "include", "position"});
      pack.rewrite.thread.include = r.string(*th, "include", at, false);
      ThreadRule& t = pack.rewrite.thread;
      t.type = r.string(*th, "type", at, true);
      t.name = r.string(*th, "name", at, true);
      t.yields = r.oneOf(*th, "yields", at, {"group", "collection"}, "group");
      t.group = r.string(*th, "group", at, false);
      t.edge = r.string(*th, "edge", at, true);
      t.position = r.oneOf(*th, "position", at, {"before_defaults", "last"}, "before_defaults");
      if (t.yields == "group" && t.group.empty())
        r.fail(at, "a thread parameter that yields a group needs \"group\" (the group it holds)");
      if (auto ptr = th->find("pointer"); ptr != th->end()) {
        if (!ptr->is_boolean()) r.fail(at + "/pointer", "expected true or false");
        t.pointer = ptr->get<bool>();
      }
    }
    pack.rewrite.spellInclude = r.string(*it, "include", "/rewrite", false);
    if (auto sp = it->find("spell"); sp != it->end()) {
      r.object(*sp, "/rewrite/spell", {"group", "size", "rank", "src_rank"});
      for (auto e = sp->begin(); e != sp->end(); ++e) {
        std::string t = r.string(*sp, e.key(), "/rewrite/spell", true);
        if (t.find("{g}") == std::string::npos)
          r.fail("/rewrite/spell/" + e.key(), "the template must name the group as {g}");
        pack.rewrite.spell[e.key()] = t;
      }
    }
    if (auto rq = it->find("require"); rq != it->end()) {
      r.object(*rq, "/rewrite/require", {"spell", "include"});
      pack.rewrite.requireSpell = r.string(*rq, "spell", "/rewrite/require", true);
      if (pack.rewrite.requireSpell.find("{message}") == std::string::npos)
        r.fail("/rewrite/require/spell", "the template must carry the message as {message}");
      pack.rewrite.requireInclude = r.string(*rq, "include", "/rewrite/require", false);
    }
  }
  if (auto it = root.find("scope"); it != root.end()) {
    r.object(*it, "/scope", {"include", "exclude", "edges"});
    if (it->contains("include")) pack.scope.include = r.strings(*it, "include", "/scope");
    pack.scope.exclude = r.strings(*it, "exclude", "/scope");
    pack.scope.edges = r.strings(*it, "edges", "/scope");
  }

  pack.publicHeaders = r.strings(root, "public_headers", "");

  const json& types = r.array(root, "types", "");
  for (size_t i = 0; i < types.size(); ++i) {
    std::string at = "/types/" + std::to_string(i);
    r.object(types[i], at, {"type", "yields", "group", "groups"});
    pack.types.push_back({r.string(types[i], "type", at, true),
                          r.oneOf(types[i], "yields", at, {"group", "collection", "state"}, ""),
                          r.string(types[i], "group", at, false),
                          r.strings(types[i], "groups", at)});
  }

  const json& accessors = r.array(root, "accessors", "");
  std::set<std::string> seen;
  for (const auto& a : pack.accessors) seen.insert(a.function.empty() ? "macro " + a.macro : a.function);
  for (const auto& g : pack.globals) seen.insert(g.variable);
  for (size_t i = 0; i < accessors.size(); ++i) {
    std::string at = "/accessors/" + std::to_string(i);
    const json& a = accessors[i];
    r.object(a, at, {"function", "macro", "kind", "group", "yields", "spell"});
    AccessorRule rule;
    rule.function = r.string(a, "function", at, false);
    rule.macro = r.string(a, "macro", at, false);
    if (rule.function.empty() == rule.macro.empty())
      r.fail(at, "exactly one of \"function\" or \"macro\" is required");
    rule.kind = r.oneOf(a, "kind", at, {"accessor", "shim"}, "");
    rule.group = r.string(a, "group", at, false);
    if (rule.kind == "accessor" && rule.group.empty())
      r.fail(at, "an accessor needs \"group\" (the group it reads, e.g. \"tp\")");
    rule.yields = r.oneOf(a, "yields", at, {"group", "size", "rank", "src_rank", "collection"},
                          rule.kind == "shim" ? "collection" : "");
    if (rule.kind == "shim" && rule.yields != "collection")
      r.fail(at + "/yields", "a shim yields a whole collection: expected \"collection\"");
    rule.spell = r.string(a, "spell", at, false);
    if (!rule.spell.empty() && rule.spell.find("{g}") == std::string::npos)
      r.fail(at + "/spell", "the template must name the group as {g}");
    std::string id = rule.function.empty() ? "macro " + rule.macro : rule.function;
    if (!seen.insert(id).second) r.fail(at, "duplicate rule for " + id);
    pack.accessors.push_back(std::move(rule));
  }

  const json& globals = r.array(root, "globals", "");
  for (size_t i = 0; i < globals.size(); ++i) {
    std::string at = "/globals/" + std::to_string(i);
    r.object(globals[i], at, {"variable", "kind", "field", "type"});
    GlobalRule rule;
    rule.variable = r.string(globals[i], "variable", at, true);
    rule.kind = r.oneOf(globals[i], "kind", at, {"global_state"}, "global_state");
    rule.field = r.string(globals[i], "field", at, false);
    rule.type = r.string(globals[i], "type", at, false);
    if (!rule.type.empty() && rule.field.empty())
      r.fail(at, "\"type\" names the per-model state type whose \"field\" replaces the "
                 "global: \"field\" is missing");
    if (!rule.field.empty() && !isIdentifier(rule.field))
      r.fail(at + "/field", "expected a field name (an identifier), got \"" + rule.field + "\"");
    if (!seen.insert(rule.variable).second) r.fail(at, "duplicate rule for " + rule.variable);
    pack.globals.push_back(std::move(rule));
  }
  for (const auto& b : baseRewrites) {
    for (const auto& [k, v] : b.spell) pack.rewrite.spell.emplace(k, v);
    if (pack.rewrite.spellInclude.empty()) pack.rewrite.spellInclude = b.spellInclude;
    if (pack.rewrite.thread.type.empty()) pack.rewrite.thread = b.thread;
    if (pack.rewrite.collapse.lookup.empty()) pack.rewrite.collapse = b.collapse;
    if (pack.rewrite.requireSpell.empty()) {
      pack.rewrite.requireSpell = b.requireSpell;
      pack.rewrite.requireInclude = b.requireInclude;
    }
  }
  if (pack.accessors.empty() && pack.globals.empty())
    r.fail("", "the pack has no \"accessors\" and no \"globals\": it would find nothing");
  return pack;
}

RulePack loadRulePack(const std::string& path, int depth) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuleError(path + ": cannot read rule pack");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseRulePack(ss.str(), path, depth);
}

}  // namespace gridlock::rules
