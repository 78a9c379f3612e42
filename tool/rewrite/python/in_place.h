// The Python reads decided where they are (docs/rewrite.md, "Python"), in inventory order: a
// fallback becomes an error naming its argument (Require: require.h), its kept fallback given
// the value the def holds; a local assigned from a read is recorded for LocalAliases; any
// other read is replaced with the value in scope (Substitute). Internal to tool/rewrite/python.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

class InPlace : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "in_place"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Substitute; }
  void runOn(PyState& s) override;
};

}  // namespace gridlock::rewrite::py
