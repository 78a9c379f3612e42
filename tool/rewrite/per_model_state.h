// Per-model state: a read of mutable global state whose pack rule names a `field` becomes that
// field of the state in scope (`tp_shard::num_kv_heads` -> `this->sharding_.num_kv_heads`).
#pragma once

#include "rewrite/strategy.h"

namespace gridlock::rewrite {

class PerModelState : public Strategy {
 public:
  void run(CppState& s) override;
  // Counted as substituted (substituteRead).
  std::string describe(const Plan&) const override { return ""; }
};

}  // namespace gridlock::rewrite
