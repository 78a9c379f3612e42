#include "rules/rule_set.h"

#include "rules/glob.h"
#include "rules/python_rules.h"

#include <algorithm>

namespace gridlock::rules {
namespace {

bool anyGlob(const std::vector<std::string>& globs, const std::string& path) {
  for (const auto& g : globs)
    if (globMatch(g, path)) return true;
  return false;
}

}  // namespace

RuleSet::RuleSet(std::vector<RulePack> packs) : packs_(std::move(packs)) {
  for (size_t p = 0; p < packs_.size(); ++p) {
    for (auto& a : packs_[p].accessors) {
      a.pack = p;
      auto& map = a.macro.empty() ? functions_ : macros_;
      const std::string& key = a.macro.empty() ? a.function : a.macro;
      if (!map.emplace(key, &a).second)
        throw RuleError(packs_[p].path + ": " + key + " is already defined by another pack");
    }
    for (auto& g : packs_[p].globals) {
      g.pack = p;
      if (!globals_.emplace(g.variable, &g).second)
        throw RuleError(packs_[p].path + ": " + g.variable + " is already defined by another pack");
    }
    for (const auto& t : packs_[p].types) types_.emplace(t.type, &t);
    for (auto& st : packs_[p].setters) {
      st.pack = p;
      auto& map = st.function.empty() ? pythonSetters_ : setters_;
      const std::string& key = st.function.empty() ? st.python : st.function;
      if (!map.emplace(key, &st).second)
        throw RuleError(packs_[p].path + ": setter " + key + " is already defined by another pack");
    }
    indexPython(p);
  }
}

void RuleSet::indexPython(size_t p) {
  auto once = [&](auto& map, const std::string& key, const auto* rule) {
    if (!map.emplace(key, rule).second)
      throw RuleError(packs_[p].path + ": " + pythonRuleName(*rule) +
                      " is already defined by another pack");
  };
  for (auto& a : packs_[p].pythonAccessors) {
    a.pack = p;
    if (!a.name.empty())
      once(pythonAccessors_, a.name, &a);
    else
      pythonFamilies_.push_back(&a);
  }
  for (auto& g : packs_[p].pythonGlobals) {
    g.pack = p;
    if (!g.variable.empty())
      once(pythonGlobals_, g.variable, &g);
    else
      once(pythonModules_, g.module, &g);
  }
}

std::optional<PythonAccessorMatch> RuleSet::pythonAccessor(const std::string& dotted) const {
  if (auto it = pythonAccessors_.find(dotted); it != pythonAccessors_.end()) {
    const PythonAccessorRule& r = *it->second;
    return PythonAccessorMatch{dotted, r.kind, r.group, r.yields, r.pack, &r};
  }
  for (const PythonAccessorRule* f : pythonFamilies_)
    if (std::optional<FamilyMember> m = familyMember(*f, dotted))
      return PythonAccessorMatch{dotted, f->kind, m->group, m->yields, f->pack, f};
  return std::nullopt;
}

const PythonGlobalRule* RuleSet::pythonGlobal(const std::string& dotted, bool setByFunction) const {
  if (auto it = pythonGlobals_.find(dotted); it != pythonGlobals_.end()) return it->second;
  size_t dot = dotted.rfind('.');
  if (!setByFunction || dot == std::string::npos) return nullptr;
  auto it = pythonModules_.find(dotted.substr(0, dot));
  if (it == pythonModules_.end()) return nullptr;
  const auto& except = it->second->except;
  if (std::find(except.begin(), except.end(), dotted.substr(dot + 1)) != except.end())
    return nullptr;
  return it->second;
}

bool RuleSet::hasPython() const {
  return !pythonAccessors_.empty() || !pythonFamilies_.empty() || !pythonGlobals_.empty() ||
         !pythonModules_.empty() || !pythonSetters_.empty();
}

const SetterRule* RuleSet::setter(const std::string& name) const {
  auto it = setters_.find(name);
  return it == setters_.end() ? nullptr : it->second;
}

const SetterRule* RuleSet::pythonSetter(const std::string& dotted) const {
  auto it = pythonSetters_.find(dotted);
  return it == pythonSetters_.end() ? nullptr : it->second;
}

RuleSet RuleSet::load(const std::vector<std::string>& refs, const PackAnchor& anchor) {
  if (refs.empty()) throw RuleError("no rule pack given (--rules FILE)");
  std::vector<RulePack> packs;
  for (const auto& r : refs)
    packs.push_back(loadRulePack(resolvePack(r, anchor, shippedPackDirs())));
  return RuleSet(std::move(packs));
}

const AccessorRule* RuleSet::function(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}
const AccessorRule* RuleSet::macro(const std::string& name) const {
  auto it = macros_.find(name);
  return it == macros_.end() ? nullptr : it->second;
}
const GlobalRule* RuleSet::global(const std::string& name) const {
  auto it = globals_.find(name);
  return it == globals_.end() ? nullptr : it->second;
}
const AccessorRule* RuleSet::accessor(const std::string& name) const {
  const AccessorRule* a = function(name);
  return a ? a : macro(name);
}
const RewriteRules* RuleSet::rewriteFor(const std::string& name) const {
  if (const AccessorRule* a = accessor(name)) return &packs_[a->pack].rewrite;
  if (const GlobalRule* g = global(name)) return &packs_[g->pack].rewrite;
  return nullptr;
}
bool RuleSet::collectionHolds(const std::string& typeSpelling, const std::string& group) const {
  for (const auto& [name, rule] : types_)
    if (rule->yields == facts::Yields::Collection && !rule->groups.empty() &&
        typeSpelling.find(name) != std::string::npos)
      return std::find(rule->groups.begin(), rule->groups.end(), group) != rule->groups.end();
  return true;
}

const TypeRule* RuleSet::type(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : it->second;
}

Placement RuleSet::place(const std::string& rel, bool underRoot, size_t pack) const {
  if (!underRoot) return Placement::Out;
  const Scope& s = packs_[pack].scope;
  if (anyGlob(s.exclude, rel)) return Placement::Out;
  if (anyGlob(s.edges, rel)) return Placement::Edge;
  return anyGlob(s.include, rel) ? Placement::In : Placement::Out;
}

Placement RuleSet::placeAny(const std::string& rel, bool underRoot) const {
  Placement best = Placement::Out;
  for (size_t p = 0; p < packs_.size(); ++p) {
    Placement pl = place(rel, underRoot, p);
    if (pl == Placement::In) return pl;
    if (pl == Placement::Edge) best = pl;
  }
  return best;
}

bool RuleSet::cxxPackScans(const std::string& rel, bool underRoot) const {
  for (size_t p = 0; p < packs_.size(); ++p)
    if ((!packs_[p].accessors.empty() || !packs_[p].globals.empty() ||
         std::any_of(packs_[p].setters.begin(), packs_[p].setters.end(),
                     [](const SetterRule& st) { return !st.function.empty(); })) &&
        place(rel, underRoot, p) == Placement::In)
      return true;
  return false;
}

bool RuleSet::isPublicHeader(const std::string& rel) const {
  for (const auto& p : packs_)
    if (anyGlob(p.publicHeaders, rel)) return true;
  return false;
}

bool RuleSet::anyInterest(const std::string& rel, bool underRoot) const {
  for (size_t p = 0; p < packs_.size(); ++p)
    if (place(rel, underRoot, p) != Placement::Out) return true;
  return false;
}

std::string RuleSet::seenKey(const AccessorRule& rule) {
  return rule.macro.empty() ? "function " + rule.function : "macro " + rule.macro;
}
std::string RuleSet::seenKey(const GlobalRule& rule) { return "variable " + rule.variable; }
std::string RuleSet::seenKey(const TypeRule& rule) { return "type " + rule.type; }
std::string RuleSet::seenKey(const SetterRule& rule) { return setterRuleName(rule); }

std::vector<Unmatched> RuleSet::unmatched(const std::set<std::string>& seen,
                                          const std::set<std::string>& files, size_t units,
                                          TreeMatch inTree, const std::string& root) const {
  const std::string in =
      " in " + std::to_string(units) + (units == 1 ? " translation unit" : " translation units");
  std::vector<Unmatched> found;
  for (const auto& pack : packs_) {
    Unmatched u{pack.name,
                pack.accessors.size() + pack.globals.size() + pack.types.size() +
                    pack.scope.include.size() +
                    static_cast<size_t>(
                        std::count_if(pack.setters.begin(), pack.setters.end(),
                                      [](const SetterRule& st) { return !st.function.empty(); })),
                {}};
    std::vector<std::string>& out = u.lines;
    const std::string of = "' (pack " + pack.name + ") matched no ";
    for (const auto& a : pack.accessors)
      if (!seen.count(seenKey(a)))
        out.push_back(a.macro.empty() ? "rule '" + a.function + of + "declaration" + in
                                      : "rule '" + a.macro + of + "macro definition" + in);
    for (const auto& g : pack.globals)
      if (!seen.count(seenKey(g))) out.push_back("rule '" + g.variable + of + "declaration" + in);
    for (const auto& st : pack.setters)
      if (!st.function.empty() && !seen.count(seenKey(st)))
        out.push_back("setter rule '" + st.function + of + "declaration" + in);
    for (const auto& t : pack.types)
      if (!seen.count(seenKey(t))) out.push_back("type rule '" + t.type + of + "declaration" + in);
    for (const auto& glob : pack.scope.include) {
      bool any = std::any_of(files.begin(), files.end(),
                             [&](const std::string& f) { return globMatch(glob, f); });
      if (!any && !(inTree && inTree(root, glob)))
        out.push_back("scope include '" + glob + of + "file" + in);
    }
    if (!out.empty()) found.push_back(std::move(u));
  }
  return found;
}

namespace {

// The rules of `pack` that name code (C++ accessors, macros and globals; Python accessors,
// families and module state), as facts::TuFacts::rulesSeen names them.
std::vector<std::string> readRuleKeys(const RulePack& pack) {
  std::vector<std::string> keys;
  for (const auto& a : pack.accessors) keys.push_back(RuleSet::seenKey(a));
  for (const auto& g : pack.globals) keys.push_back(RuleSet::seenKey(g));
  for (const auto& a : pack.pythonAccessors) keys.push_back(pythonRuleName(a));
  for (const auto& g : pack.pythonGlobals) keys.push_back(pythonRuleName(g));
  for (const auto& st : pack.setters) keys.push_back(RuleSet::seenKey(st));
  return keys;
}

}  // namespace

std::vector<std::string> RuleSet::nothingMatched(const std::set<std::string>& seen) const {
  std::vector<std::string> out;
  for (const auto& pack : packs_) {
    std::vector<std::string> keys = readRuleKeys(pack);
    if (keys.empty()) continue;
    if (std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return seen.count(k); }))
      return {};
    out.push_back(pack.name);
  }
  return out;
}

}  // namespace gridlock::rules
