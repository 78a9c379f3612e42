// One backend's plan in the making: the facts its strategies read, the verdicts and edits they
// write. Its strategies get the backend's subclass (rewrite/cpp/cpp_state.h's CppState), which adds
// what they share. A read of another language is never open here: its backend decides it.
#pragma once

#include "index/inventory.h"
#include "rewrite/core/plan.h"
#include "rules/rule_set.h"

#include <string>
#include <vector>

namespace gridlock::rewrite {

// Why no edit may land in `file`, or "": a run over some paths (index::Inventory::subset)
// edits only the files they select, though every strategy decides on the whole program (a
// call in another file keeps a fallback live and a parameter list as it is).
std::string outsidePaths(const index::Inventory& inv, const std::string& file);

class PlanState {
 public:
  PlanState(const index::Inventory& inv, const rules::RuleSet& rules, const HeldFiles& held,
            facts::Language language);
  virtual ~PlanState() = default;
  PlanState(const PlanState&) = delete;  // strategies hold references into it
  PlanState& operator=(const PlanState&) = delete;

  const index::Inventory& inv;
  const rules::RuleSet& rules;
  Plan plan;

  size_t size() const { return inv.reads.size(); }
  const facts::Read& read(size_t i) const { return inv.reads[i]; }
  facts::Language language() const { return language_; }
  // Of this backend's language.
  bool mine(size_t i) const { return read(i).language == language_; }
  // Mine, and no strategy has decided on it yet.
  bool open(size_t i) const { return mine(i) && !decided_[i]; }
  // The read's verdict, null while it is not decided.
  const facts::Verdict* decided(size_t i) const {
    return decided_[i] ? &plan.verdicts[i] : nullptr;
  }
  // A decided read's verdict, to add to its detail.
  facts::Verdict& verdict(size_t i) { return plan.verdicts[i]; }
  // An edit of `by` removes the read.
  void apply(size_t i, facts::Strategy by, std::string detail);
  // The read stays, for `why` and `detail`.
  void leave(size_t i, facts::Left why, std::string detail);
  // The read takes `v`, another read's verdict.
  void decide(size_t i, facts::Verdict v);
  // A verdict taken back: the read is open again.
  void reopen(size_t i);
  void edit(Edit e) { plan.edits.push_back(std::move(e)); }
  // Adds to a strategy's tally.
  Tally& tally(facts::Strategy s) { return plan.tallies[s]; }
  // Why no edit may land in `file` (its rewritten contents did not pass verification), or null.
  const std::string* held(const std::string& file) const;
  const HeldFiles& heldFiles() const { return held_; }

 private:
  const HeldFiles& held_;
  facts::Language language_;
  std::vector<bool> decided_;
};

}  // namespace gridlock::rewrite
