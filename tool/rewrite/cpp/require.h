// Require: a fallback (`pg ? pg : global()`) whose parameter every call site supplies (after
// Supply gives the sites that leave it out what they hold) becomes a loud failure typed like
// the read: `gridlock::require_group<T>("X requires an explicit pg")`.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"

namespace gridlock::rewrite::cpp {

class Require : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "require"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Require; }
  void runOn(CppState& s) override;

 private:
  void require(CppState& s, size_t i);
};

}  // namespace gridlock::rewrite::cpp
