#include "rewrite/cpp/plan.h"

#include "rewrite/core/planner.h"
#include "rewrite/cpp/cpp_state.h"
#include "rewrite/cpp/rewriter.h"

namespace gridlock::rewrite::cpp {

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

}  // namespace gridlock::rewrite::cpp
