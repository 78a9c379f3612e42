#include "rewrite/edge_hoist.h"

#include "rewrite/type_spelling.h"

#include <algorithm>

namespace gridlock::rewrite {
namespace {

// The definition of `usr` with a body, when the rewriter's facts have it.
const facts::ParamListFact* bodyOf(const PlanState& s, const std::string& usr) {
  if (auto lists = s.inv.rewrite.lists.find(usr); lists != s.inv.rewrite.lists.end())
    for (const auto& l : lists->second)
      if (l.bodyFirst) return &l;
  return nullptr;
}

// Whether `name` is free in the function: no local, no parameter, no local another strategy
// declared there takes it.
bool nameFree(const PlanState& s, const std::string& usr, const facts::ParamListFact& def,
              const std::string& name) {
  if (std::find(def.bodyNames.begin(), def.bodyNames.end(), name) != def.bodyNames.end())
    return false;
  if (auto fn = s.inv.program.functions.find(usr); fn != s.inv.program.functions.end())
    for (const auto& p : fn->second.params)
      if (p.name == name) return false;
  return !s.locals.count(usr);
}

// The argument text with its last `edge` (where the inserted text has it) made `name`.
std::string passLocal(std::string text, const std::string& edge, const std::string& name) {
  size_t at = text.rfind(edge);
  if (at != std::string::npos) text.replace(at, edge.size(), name);
  return text;
}

}  // namespace

void hoistEdges(PlanState& s, const EdgeArgs& edges,
                std::map<ArgKey, std::pair<std::string, std::string>>& args) {
  for (const auto& [usr, byRule] : edges)
    for (const auto& [rule, keys] : byRule) {
      if (!rule->hoist || keys.size() < 2) continue;
      const facts::ParamListFact* def = bodyOf(s, usr);
      if (!def || !nameFree(s, usr, *def, rule->name)) continue;
      // Every argument in the body, after the place of the declaration (not in a
      // constructor's initializer list, not in another file).
      bool inBody = std::all_of(keys.begin(), keys.end(), [&](const ArgKey& k) {
        return k.first == def->file && k.second > def->bodyFirst;
      });
      if (!inBody) continue;
      const facts::FunctionFact& fn = s.inv.program.functions.at(usr);
      std::string className;
      if (auto c = s.inv.program.classes.find(fn.classUsr); c != s.inv.program.classes.end())
        className = c->second.name;
      std::string type = relativeTypeSpelling(rule->type, enclosingNamespace(fn.name, className));
      std::string decl = declaration(type, rule->name) + " = " + rule->edge + ";" +
                         (def->bodyIndented ? "\n" + def->bodyIndent : std::string(" "));
      s.plan.edits.push_back(
          {def->file, def->bodyFirst, 0, decl, def->file + " " + rule->name + " of " + fn.name});
      s.locals[usr] = {rule->name, rule->type, rule->edge};
      for (const auto& k : keys) args[k].first = passLocal(args[k].first, rule->edge, rule->name);
      ++s.tally("thread").locals;
    }
}

}  // namespace gridlock::rewrite
