// A read spelled as a local that holds the global (`kv = tp_shard.num_kv_heads`, then `kv`)
// takes the verdict of the read it was assigned from (Substitute recorded it), once every other
// strategy has decided that one. Counts under its source's strategy. Internal to
// tool/rewrite/python.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

class LocalAliases : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "local_aliases"; }
  std::optional<facts::Strategy> counts() const override { return std::nullopt; }
  void runOn(PyState& s) override;
};

}  // namespace gridlock::rewrite::py
