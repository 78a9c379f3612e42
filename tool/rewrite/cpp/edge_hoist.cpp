#include "rewrite/cpp/edge_hoist.h"

#include "rewrite/cpp/type_spelling.h"

#include <algorithm>
#include <map>
#include <vector>

namespace gridlock::rewrite::cpp {
namespace {

// Whether `name` is free in the definition: no local, no parameter takes it.
bool nameFree(const CppState& s, const std::string& usr, const facts::ParamListFact& def,
              const std::string& name) {
  if (std::find(def.bodyNames.begin(), def.bodyNames.end(), name) != def.bodyNames.end())
    return false;
  if (auto fn = s.inv.program.functions.find(usr); fn != s.inv.program.functions.end())
    for (const auto& p : fn->second.params)
      if (p.name == name) return false;
  return true;
}

// The argument text with its last `edge` (where the inserted text has it) made `name`.
std::string passLocal(std::string text, const std::string& edge, const std::string& name) {
  size_t at = text.rfind(edge);
  if (at != std::string::npos) text.replace(at, edge.size(), name);
  return text;
}

}  // namespace

void hoistEdges(CppState& s, const EdgeArgs& edges,
                std::map<ArgKey, std::pair<std::string, std::string>>& args) {
  for (const auto& [usr, byRule] : edges)
    for (const auto& [rule, keys] : byRule) {
      // Not where another strategy declared a local already.
      if (!rule->hoist || s.locals.count(usr)) continue;
      // A function two programs of the database each define (one USR, two bodies) declares
      // the local in each body that passes the edge at two or more calls.
      std::map<std::string, std::vector<ArgKey>> byFile;
      for (const auto& k : keys) byFile[k.first].push_back(k);
      for (const auto& [file, here] : byFile) {
        if (here.size() < 2) continue;
        const facts::ParamListFact* def = s.definitionIn(usr, file);
        if (!def || !def->bodyFirst || !nameFree(s, usr, *def, rule->name)) continue;
        // Every argument after the place of the declaration (not in a constructor's
        // initializer list).
        if (!std::all_of(here.begin(), here.end(),
                         [&](const ArgKey& k) { return k.second > def->bodyFirst; }))
          continue;
        const facts::FunctionFact& fn = s.inv.program.functions.at(usr);
        std::string type = typeSpellingIn(rule->type, s.namespaceOf(fn), def->aliases);
        const std::string edge = s.edgeIn(*rule, &fn, file);
        std::string decl = declaration(type, rule->name) + " = " + edge + ";" +
                           (def->bodyIndented ? "\n" + def->bodyIndent : std::string(" "));
        s.plan.edits.push_back({def->file, def->bodyFirst, 0, decl, facts::Strategy::Thread,
                                def->file + " " + rule->name + " of " + fn.name});
        s.locals[usr] = {rule->name, rule->type, rule->edge};
        for (const auto& k : here) args[k].first = passLocal(args[k].first, edge, rule->name);
        ++s.tally(facts::Strategy::Thread).hoisted;
      }
    }
}

}  // namespace gridlock::rewrite::cpp
