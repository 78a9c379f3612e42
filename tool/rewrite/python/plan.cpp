#include "rewrite/python/plan.h"

#include "rewrite/core/planner.h"
#include "rewrite/python/py_state.h"
#include "rewrite/python/rewriter.h"

namespace gridlock::rewrite::py {

std::unique_ptr<PyState> plan(const index::Inventory& inv, const rules::RuleSet& rules,
                              const std::string& root,
                              const std::map<std::string, std::string>& overlay,
                              const HeldFiles* held, const std::set<std::string>* unhinted) {
  static const HeldFiles none;
  PyRewriter backend;
  if (unhinted) backend.unhinted = *unhinted;
  std::unique_ptr<PlanState> planned =
      planWith(backend, {inv, rules, root, held ? *held : none, overlay});
  return std::unique_ptr<PyState>(static_cast<PyState*>(planned.release()));
}

void mergeInto(const index::Inventory& inv, const Plan& py, Plan& into) {
  for (size_t i = 0; i < inv.reads.size() && i < py.verdicts.size() && i < into.verdicts.size();
       ++i)
    if (inv.reads[i].language == facts::Language::Python) into.verdicts[i] = py.verdicts[i];
  into.edits.insert(into.edits.end(), py.edits.begin(), py.edits.end());
  for (const auto& [k, t] : py.tallies) {
    into.tallies[k].reads += t.reads;
    into.tallies[k].places += t.places;
  }
}

}  // namespace gridlock::rewrite::py
