// Supply: call sites that leave a group out of a function with a fallback (or pass null for
// it) are given the group they hold in scope. That makes fallbacks dead (Require) and removes
// `laundered` reads: the site passes the group instead of letting the helper read the global.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"

namespace gridlock::rewrite::cpp {

class Supply : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "supply"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Supply; }
  void runOn(CppState& s) override;

 private:
  void laundered(CppState& s, size_t i);
};

}  // namespace gridlock::rewrite::cpp
