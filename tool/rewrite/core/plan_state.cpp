#include "rewrite/core/plan_state.h"

namespace gridlock::rewrite {

std::string outsidePaths(const index::Inventory& inv, const std::string& file) {
  if (!inv.subset || inv.filesSeen.count(file)) return "";
  return file + " is not among the paths this rewrite was given";
}

PlanState::PlanState(const index::Inventory& inventory, const rules::RuleSet& ruleSet,
                     const HeldFiles& held, facts::Language language)
    : inv(inventory),
      rules(ruleSet),
      held_(held),
      language_(language),
      decided_(inventory.reads.size(), false) {
  plan.verdicts.resize(inventory.reads.size());
}

void PlanState::apply(size_t i, facts::Strategy by, std::string detail) {
  decide(i, {by, facts::Left::Unset, std::move(detail)});
}

void PlanState::leave(size_t i, facts::Left why, std::string detail) {
  decide(i, {std::nullopt, why, std::move(detail)});
}

void PlanState::decide(size_t i, facts::Verdict v) {
  decided_[i] = true;
  plan.verdicts[i] = std::move(v);
}

void PlanState::reopen(size_t i) {
  decided_[i] = false;
  plan.verdicts[i] = {};
}

const std::string* PlanState::held(const std::string& file) const {
  auto it = held_.find(file);
  return it == held_.end() ? nullptr : &it->second;
}

}  // namespace gridlock::rewrite
