#include "rewrite/cpp/collapse.h"

#include "rewrite/cpp/type_spelling.h"

#include <algorithm>

namespace gridlock::rewrite::cpp {
namespace {

// The definition of `usr` with a body, when the rewriter's facts have it.
const facts::ParamListFact* definitionOf(const CppState& s, const std::string& usr) {
  const facts::ParamListFact* def = nullptr;
  if (auto lists = s.inv.rewrite.lists.find(usr); lists != s.inv.rewrite.lists.end())
    for (const auto& l : lists->second)
      if (l.bodyFirst) def = &l;
  return def;
}

}  // namespace

std::map<std::string, std::vector<size_t>> Collapse::candidates(CppState& s) const {
  std::map<std::string, std::vector<size_t>> out;
  if (!s.inv.rewrite.collected) return out;
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (!s.functionLevel(i) || r.kind != facts::ReadKind::Accessor || r.group.empty() ||
        r.yields == facts::Yields::Collection || !r.called || r.inLambda || r.inInitializer ||
        r.inDefaultArgument || CppState::inMacro(r) || r.length == 0 || r.enclosingUsr.empty())
      continue;
    const rules::RewriteRules* pack = s.packRules(r);
    if (!pack || pack->collapse.lookup.empty() ||
        !s.rules.collectionHolds(pack->collapse.type, r.group))
      continue;
    out[r.enclosingUsr].push_back(i);
  }
  return out;
}

void Collapse::runOn(CppState& s) {
  for (const auto& [usr, reads] : candidates(s)) collapse(s, usr, reads);
}

void Collapse::collapse(CppState& s, const std::string& usr, const std::vector<size_t>& reads) {
  const rules::CollapseRule& rule = s.packRules(s.read(reads[0]))->collapse;
  const facts::ParamListFact* def = definitionOf(s, usr);
  if (!def || def->file != s.read(reads[0]).file) return;
  const facts::FunctionFact& fn = s.inv.program.functions.at(usr);
  bool clash =
      std::find(def->bodyNames.begin(), def->bodyNames.end(), rule.name) != def->bodyNames.end();
  for (const auto& prm : fn.params) clash = clash || prm.name == rule.name;
  // The same local declared there already (Thread's hoisted edge: `env` of the same type and
  // initialiser) serves the reads; another local of that name clashes.
  bool declared = false;
  if (auto l = s.locals.find(usr); l != s.locals.end() && l->second.name == rule.name) {
    declared = l->second.type == rule.type && l->second.init == rule.lookup;
    clash = clash || !declared;
  }
  std::vector<std::pair<size_t, std::string>> planned;
  bool derived = false;
  for (size_t i : reads) {
    const facts::Read& r = s.read(i);
    if (&s.packRules(r)->collapse != &rule || r.offset < def->bodyFirst) continue;
    // An env object's groups are its methods; a collection's, its fields (smart pointers).
    CppState::Spelled value = s.packRules(r)->env.type.empty()
                                  ? s.valueFrom(r, rule.name + "." + r.group, true)
                                  : s.valueFromEnv(r, rule.name, rule.type.back() == '*');
    if (value.text.empty()) continue;
    derived = derived || value.derived;
    planned.emplace_back(i, value.text);
  }
  if (planned.size() < 2) return;
  if (clash) {
    for (auto& [i, text] : planned)
      s.verdict(i).detail += "; not collapsed: " + fn.name + " already declares " + rule.name;
    return;
  }
  // Spelled as a maintainer writes it in the function's namespace, as Thread's parameter is.
  const std::string scope = s.namespaceOf(fn);
  std::string decl = declaration(typeSpellingIn(rule.type, scope, def->aliases), rule.name) +
                     " = " + typeSpellingIn(rule.lookup, scope, def->aliases) + ";" +
                     (def->bodyIndented ? "\n" + def->bodyIndent : std::string(" "));
  for (auto& [i, text] : planned) {
    const facts::Read& r = s.read(i);
    std::string why = s.verdict(i).detail;
    // A read that starts the body takes the declaration in the same edit.
    std::string edit = r.offset == def->bodyFirst && !declared ? decl + text : text;
    declared = declared || r.offset == def->bodyFirst;
    s.plan.edits.push_back(
        {r.file, r.offset, r.length, edit, facts::Strategy::Collapse, at(r) + " collapse"});
    ++s.tally(facts::Strategy::Collapse).reads;
    s.apply(i, facts::Strategy::Collapse,
            "replaced with " + text + ": one lookup (" + rule.name + ") for " +
                std::to_string(planned.size()) + " reads of " + fn.name + ", which " +
                "could not be threaded (" + why + ")");
  }
  if (!declared)
    s.plan.edits.push_back({def->file, def->bodyFirst, 0, decl, facts::Strategy::Collapse,
                            def->file + " collapse of " + fn.name});
  if (!rule.include.empty()) s.include({def->file, rule.include});
  if (derived)
    if (const rules::RewriteRules* pack = s.packRules(s.read(planned[0].first));
        pack && !pack->spellInclude.empty())
      s.include({def->file, pack->spellInclude});
  ++s.tally(facts::Strategy::Collapse).places;
}

}  // namespace gridlock::rewrite::cpp
