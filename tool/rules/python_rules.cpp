#include "rules/python_rules.h"

#include "support/strings.h"

#include <algorithm>

namespace gridlock::rules {

using nlohmann::json;

bool isPythonRule(const json& entry, std::initializer_list<const char*> keys) {
  if (!entry.is_object()) return false;
  return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return entry.contains(k); });
}

bool isDottedName(const std::string& name) {
  size_t begin = 0;
  while (true) {
    size_t dot = name.find('.', begin);
    if (!support::isIdentifier(name.substr(begin, dot - begin))) return false;
    if (dot == std::string::npos) return true;
    begin = dot + 1;
  }
}

std::string pythonRuleName(const PythonAccessorRule& rule) {
  if (!rule.name.empty()) return "python " + rule.name;
  return "python_family " + rule.family.module + "." + rule.family.prefix + "*";
}

std::string pythonRuleName(const PythonGlobalRule& rule) {
  if (!rule.variable.empty()) return "python " + rule.variable;
  return "python_module " + rule.module;
}

std::string setterRuleName(const SetterRule& rule) {
  if (!rule.function.empty()) return "setter function " + rule.function;
  return "setter python " + rule.python;
}

std::string readPythonName(const PackReader& r, const json& j, const std::string& key,
                           const std::string& at) {
  std::string name = r.string(j, key, at, true);
  if (!isDottedName(name))
    r.fail(
        at + "/" + key,
        "expected a dotted Python name (\"megatron.core.parallel_state\"), got \"" + name + "\"");
  return name;
}

namespace {

std::string dotted(const PackReader& r, const json& j, const std::string& key,
                   const std::string& at) {
  return readPythonName(r, j, key, at);
}

std::vector<std::string> identifiers(const PackReader& r, const json& j, const std::string& key,
                                     const std::string& at) {
  std::vector<std::string> out = r.strings(j, key, at);
  for (size_t i = 0; i < out.size(); ++i)
    if (!support::isIdentifier(out[i]))
      r.fail(at + "/" + key + "/" + std::to_string(i),
             "expected a Python name, got \"" + out[i] + "\"");
  return out;
}

PythonFamily readFamily(const PackReader& r, const json& f, const std::string& at) {
  using facts::Yields;
  r.object(f, at, {"module", "prefix", "suffixes", "except", "groups"});
  PythonFamily family;
  family.module = dotted(r, f, "module", at);
  auto prefix = f.find("prefix");
  if (prefix != f.end() && !prefix->is_string()) r.fail(at + "/prefix", "expected a string");
  if (prefix != f.end()) family.prefix = prefix->get<std::string>();
  auto suffixes = f.find("suffixes");
  if (suffixes == f.end() || !suffixes->is_object() || suffixes->empty())
    r.fail(at + "/suffixes",
           "expected an object of name endings and what each yields, e.g. "
           "{\"_group\": \"group\", \"_world_size\": \"size\"}");
  for (auto s = suffixes->begin(); s != suffixes->end(); ++s)
    family.suffixes[s.key()] =
        r.choice(*suffixes, s.key(), at + "/suffixes",
                 {Yields::Group, Yields::Size, Yields::Rank, Yields::SrcRank, Yields::Value});
  family.except = identifiers(r, f, "except", at);
  if (auto groups = f.find("groups"); groups != f.end()) {
    if (!groups->is_object()) r.fail(at + "/groups", "expected an object of names and groups");
    for (auto g = groups->begin(); g != groups->end(); ++g)
      family.groups[g.key()] = r.string(*groups, g.key(), at + "/groups", true);
  }
  return family;
}

}  // namespace

PythonAccessorRule readPythonAccessor(const PackReader& r, const json& a, const std::string& at) {
  using facts::ReadKind;
  r.object(a, at,
           {"python", "python_family", "kind", "group", "yields", "returns", "state_parameter"});
  if (a.contains("python") == a.contains("python_family"))
    r.fail(at, "exactly one of \"python\" or \"python_family\" is required");
  PythonAccessorRule rule;
  if (a.contains("python_family")) {
    rule.kind = r.choice(a, "kind", at, {ReadKind::Accessor, ReadKind::Shim});
    rule.group = r.string(a, "group", at, false);
    rule.family = readFamily(r, a.at("python_family"), at + "/python_family");
    if (rule.kind != ReadKind::Accessor)
      r.fail(at + "/kind", "a family is of accessors: expected \"accessor\"");
    if (a.contains("yields"))
      r.fail(at + "/yields", "a family's suffixes say what each accessor yields");
    for (const char* k : {"returns", "state_parameter"})
      if (a.contains(k))
        r.fail(at + "/" + k, "only an accessor named by \"python\" reads module state so");
    return rule;
  }
  rule.name = dotted(r, a, "python", at);
  r.accessorKind(a, at, rule.kind, rule.group, rule.yields, true);
  if (a.contains("returns")) rule.returns = dotted(r, a, "returns", at);
  rule.stateParameter = r.string(a, "state_parameter", at, false);
  if (!rule.stateParameter.empty() && !support::isIdentifier(rule.stateParameter))
    r.fail(at + "/state_parameter",
           "expected a parameter name (a Python identifier), got \"" + rule.stateParameter + "\"");
  if ((!rule.returns.empty() || !rule.stateParameter.empty()) &&
      rule.yields != facts::Yields::State)
    r.fail(at, std::string("\"") + (rule.returns.empty() ? "state_parameter" : "returns") +
                   "\" says the function reads module state: it yields \"state\"");
  if (!rule.returns.empty() && !rule.stateParameter.empty())
    r.fail(at + "/state_parameter",
           "a getter (\"returns\") returns one variable; \"state_parameter\" is for a function "
           "that reads the state and takes it as a parameter after the move: not both");
  return rule;
}

PythonGlobalRule readPythonGlobal(const PackReader& r, const json& g, const std::string& at) {
  r.object(g, at, {"python", "python_module", "kind", "except"});
  if (g.contains("python") == g.contains("python_module"))
    r.fail(at, "exactly one of \"python\" or \"python_module\" is required");
  r.choice(g, "kind", at, {facts::ReadKind::GlobalState}, {facts::ReadKind::GlobalState});
  PythonGlobalRule rule;
  if (g.contains("python")) {
    rule.variable = dotted(r, g, "python", at);
    if (g.contains("except"))
      r.fail(at + "/except", "only a \"python_module\" rule has exceptions");
    return rule;
  }
  rule.module = dotted(r, g, "python_module", at);
  rule.except = identifiers(r, g, "except", at);
  return rule;
}

PythonCounting readPythonCounting(const PackReader& r, const json& p) {
  r.object(p, "/python", {"count", "once_per_line", "laundering"});
  PythonCounting c;
  std::string count = r.string(p, "count", "/python", false);
  if (!count.empty() && count != "references" && count != "calls")
    r.fail("/python/count", "expected one of \"references\", \"calls\"; got \"" + count + "\"");
  c.callsOnly = count == "calls";
  c.oncePerLine = r.boolean(p, "once_per_line", "/python", false);
  c.launder = r.boolean(p, "laundering", "/python", true);
  return c;
}

std::optional<FamilyMember> familyMember(const PythonAccessorRule& rule, const std::string& name) {
  const PythonFamily& f = rule.family;
  if (f.module.empty() || name.size() <= f.module.size() + 1 ||
      name.compare(0, f.module.size(), f.module) != 0 || name[f.module.size()] != '.')
    return std::nullopt;
  std::string last = name.substr(f.module.size() + 1);
  if (last.find('.') != std::string::npos || last.compare(0, f.prefix.size(), f.prefix) != 0 ||
      std::find(f.except.begin(), f.except.end(), last) != f.except.end())
    return std::nullopt;
  const std::pair<const std::string, facts::Yields>* best = nullptr;
  for (const auto& s : f.suffixes)
    if (last.size() >= f.prefix.size() + s.first.size() && last.ends_with(s.first) &&
        (!best || s.first.size() > best->first.size()))
      best = &s;
  if (!best) return std::nullopt;
  std::string middle =
      last.substr(f.prefix.size(), last.size() - f.prefix.size() - best->first.size());
  // A family that names its groups is those names between prefix and suffix, nothing looser:
  // `get_expert_tokens_for_rank` is no `get_*_rank` of a group.
  auto g = f.groups.find(middle);
  if (!f.groups.empty() && g == f.groups.end()) return std::nullopt;
  FamilyMember m;
  m.yields = best->second;
  m.group = rule.group;
  if (m.group.empty()) m.group = g == f.groups.end() ? middle : g->second;
  return m;
}

}  // namespace gridlock::rules
