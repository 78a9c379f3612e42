// Collapse (docs/rewrite.md, "Python", `collapse`; rewrite.python.collapse): in a def Thread
// could not give a parameter, two or more reads the collection spells become one lookup of it
// and fields of it:
//   self.pp_size = parallel_state.get_pipeline_model_parallel_world_size()
//   self.tp_rank = parallel_state.get_tensor_model_parallel_rank()
// ->
//   pg_collection = ProcessGroupCollection.use_mpu_process_groups(required_pgs=["pp", "tp"])
//   self.pp_size = pg_collection.pp.size()
//   self.tp_rank = pg_collection.tp.rank()
// N global reads become one, and the def has one place to take the collection from once it can
// have a parameter. Internal to tool/rewrite/python; runs after Thread and Supply.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

void collapseReads(PyState& s);

class Collapse : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "collapse"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Collapse; }
  void runOn(PyState& s) override { collapseReads(s); }
};

}  // namespace gridlock::rewrite::py
