// Collapse (docs/rewrite.md): several group reads of a function Thread cannot change become one
// lookup of the collection that holds them.
#include "rewrite/planner.h"

#include <algorithm>

namespace gridlock::rewrite::detail {

void Planner::collapse(Plan& p) {
  std::map<std::string, std::vector<facts::Read*>> byFunction;
  for (auto& r : p.reads) {
    if (!functionLevel_.count(readKey(r)) || r.kind != "accessor" || r.group.empty() ||
        r.yields == "collection" || !r.called || r.inLambda || r.inInitializer ||
        r.inDefaultArgument || inMacro(r) || r.length == 0 || r.enclosingUsr.empty())
      continue;
    const rules::RewriteRules* pack = packRules(r);
    if (!pack || pack->collapse.lookup.empty() ||
        !rules_.collectionHolds(pack->collapse.type, r.group))
      continue;
    byFunction[r.enclosingUsr].push_back(&r);
  }
  for (auto& [usr, reads] : byFunction) {
    const rules::CollapseRule& rule = packRules(*reads[0])->collapse;
    const facts::ParamListFact* def = nullptr;
    if (auto lists = facts_->lists.find(usr); lists != facts_->lists.end())
      for (const auto& l : lists->second)
        if (l.bodyFirst) def = &l;
    if (!def || def->file != reads[0]->file) continue;
    const facts::FunctionFact& fn = inv_.program.functions.at(usr);
    bool clash = std::find(def->bodyNames.begin(), def->bodyNames.end(), rule.name) !=
                 def->bodyNames.end();
    for (const auto& prm : fn.params) clash = clash || prm.name == rule.name;
    std::vector<std::pair<facts::Read*, std::string>> planned;
    bool derived = false;
    for (facts::Read* r : reads) {
      if (&packRules(*r)->collapse != &rule || r->offset < def->bodyFirst) continue;
      bool d = false;
      std::string text = valueFrom(*r, rule.name + "." + r->group, true, d);
      if (text.empty()) continue;
      derived = derived || d;
      planned.emplace_back(r, text);
    }
    if (planned.size() < 2) continue;
    if (clash) {
      for (auto& [r, text] : planned)
        r->fixDetail += "; not collapsed: " + fn.name + " already declares " + rule.name;
      continue;
    }
    std::string decl = rule.type + " " + rule.name + " = " + rule.lookup + ";" +
                       (def->bodyIndented ? "\n" + def->bodyIndent : std::string(" "));
    bool declared = false;
    for (auto& [r, text] : planned) {
      std::string why = r->fixDetail;
      // A read that starts the body takes the declaration in the same edit.
      std::string edit = r->offset == def->bodyFirst && !declared ? decl + text : text;
      declared = declared || r->offset == def->bodyFirst;
      p.edits.push_back({r->file, r->offset, r->length, edit, at(*r) + " collapse"});
      r->fix = "collapse";
      r->fixDetail = "replaced with " + text + ": one lookup (" + rule.name + ") for " +
                     std::to_string(planned.size()) + " reads of " + fn.name + ", which " +
                     "could not be threaded (" + why + ")";
      ++p.collapsed;
    }
    if (!declared)
      p.edits.push_back(
          {def->file, def->bodyFirst, 0, decl, def->file + " collapse of " + fn.name});
    if (!rule.include.empty()) p.includes.push_back({def->file, rule.include});
    if (derived)
      if (const rules::RewriteRules* pack = packRules(*planned[0].first);
          pack && !pack->spellInclude.empty())
        p.includes.push_back({def->file, pack->spellInclude});
    ++p.collapsedFunctions;
  }
}

}  // namespace gridlock::rewrite::detail
