// Per-model state: a read of mutable global state whose pack rule names a `field` becomes that
// field of the state in scope (`tp_shard::num_kv_heads` -> `this->sharding_.num_kv_heads`).
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"

namespace gridlock::rewrite::cpp {

class PerModelState : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "per_model_state"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Substitute; }
  void runOn(CppState& s) override;
  // Counted as substituted (substituteRead).
  std::string describe(const Plan&) const override { return ""; }
};

}  // namespace gridlock::rewrite::cpp
