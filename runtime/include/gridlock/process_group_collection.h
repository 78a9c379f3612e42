// The named groups a layer needs, passed explicitly (Megatron-core's ProcessGroupCollection).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock {

class ProcessGroup;

class ProcessGroupCollection {
 public:
  std::shared_ptr<ProcessGroup> tp, pp, cp, dp, dp_cp, mp, tp_cp, tp_dp, tp_dp_cp;
  std::shared_ptr<ProcessGroup> ep, expt_tp, expt_dp, tp_ep, tp_ep_pp;
  std::shared_ptr<ProcessGroup> embd, pos_embd;

  // The legacy shim: a collection built from parallel_state's process-wide groups. New code
  // builds a Grid and passes grid.groups(). Throws in strict mode.
  static ProcessGroupCollection use_mpu_process_groups();

  // Field by name ("tp", "expt_dp", ...); throws std::out_of_range for an unknown name.
  std::shared_ptr<ProcessGroup>& get(std::string_view name);
  const std::shared_ptr<ProcessGroup>& get(std::string_view name) const;
  static const std::vector<std::string>& field_names();
};

}  // namespace gridlock
