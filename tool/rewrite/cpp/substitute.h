// Substitute: a read whose group (or collection) is in scope becomes that value, or the value
// the pack spells from it (`{g}->size()`).
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"

namespace gridlock::rewrite::cpp {

class Substitute : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "substitute"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Substitute; }
  void runOn(CppState& s) override;
};

// Replaces read `i` with `tmpl` spelled from its hint's source (the pack's template for the
// read when `tmpl` is empty); leaves it as `no_spelling` when that cannot be spelled. Shared
// with PerModelState.
void substituteRead(CppState& s, size_t i, const std::string& tmpl);

}  // namespace gridlock::rewrite::cpp
