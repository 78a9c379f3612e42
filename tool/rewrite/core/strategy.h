// A rewrite strategy (docs/rewrite.md): it takes the open reads of its language it knows how to
// remove, adds their edits to the plan and applies their verdicts, or leaves them with a
// reason. A backend runs its strategies once each, in the order it lists them (the C++ ones in
// rewrite/cpp/strategies.cpp), the way a clang-tidy module registers its checks.
#pragma once

#include "facts/kinds.h"
#include "rewrite/core/plan.h"
#include "rewrite/core/plan_state.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::rewrite {

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual facts::Language language() const = 0;
  // Tests' handle and docs' section: "require".
  virtual std::string_view id() const = 0;
  // The verdict its edits count under (its part of the summary line); none for a step that
  // only settles what others decided.
  virtual std::optional<facts::Strategy> counts() const = 0;
  virtual void run(PlanState& state) = 0;
  // Its part of the summary line ("12 substituted"); "" for none. By default the core's
  // sentence for what it counts (describeTally).
  virtual std::string describe(const Plan& plan) const;
};

// A strategy of the backend whose plan state is `State` (which names its language): it runs
// on that state. `runOn`, not an overload of `run`: -Woverloaded-virtual is an error.
template <class State>
class StrategyOf : public Strategy {
 public:
  facts::Language language() const final { return State::kLanguage; }
  void run(PlanState& s) final { runOn(static_cast<State&>(s)); }
  virtual void runOn(State& s) = 0;
};

using Strategies = std::vector<std::unique_ptr<Strategy>>;

}  // namespace gridlock::rewrite
