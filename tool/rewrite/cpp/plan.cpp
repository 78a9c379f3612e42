#include "rewrite/plan.h"

#include "rewrite/core/planner.h"
#include "rewrite/core/summary.h"
#include "rewrite/cpp_state.h"
#include "rewrite/rewriter.h"
#include "rewrite/strategy.h"

namespace gridlock::rewrite {

std::unique_ptr<CppState> planState(const index::Inventory& inv, const rules::RuleSet& rules,
                                    const HeldFiles* held) {
  static const HeldFiles none;
  static const std::map<std::string, std::string> unchanged;
  CppRewriter backend;
  std::unique_ptr<PlanState> planned =
      planWith(backend, {inv, rules, "", held ? *held : none, unchanged});
  return std::unique_ptr<CppState>(static_cast<CppState*>(planned.release()));
}

Plan plan(const index::Inventory& inv, const rules::RuleSet& rules, const HeldFiles* held) {
  return std::move(planState(inv, rules, held)->plan);
}

std::string summaryLine(const Plan& plan, const index::Inventory& inv) {
  std::vector<const Strategy*> registered;
  for (const auto& strategy : strategies()) registered.push_back(strategy.get());
  return summaryLine(plan, inv, registered);
}

}  // namespace gridlock::rewrite
