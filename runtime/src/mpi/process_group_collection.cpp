#include "gridlock/process_group_collection.h"

#include "gridlock/process_group.h"

#include <stdexcept>

namespace gridlock {

const std::vector<std::string>& ProcessGroupCollection::field_names() {
  static const std::vector<std::string> names = {
      "tp",       "pp", "cp",      "dp",      "dp_cp", "mp",       "tp_cp", "tp_dp",
      "tp_dp_cp", "ep", "expt_tp", "expt_dp", "tp_ep", "tp_ep_pp", "embd",  "pos_embd"};
  return names;
}

std::shared_ptr<ProcessGroup>& ProcessGroupCollection::get(std::string_view name) {
  if (name == "tp") return tp;
  if (name == "pp") return pp;
  if (name == "cp") return cp;
  if (name == "dp") return dp;
  if (name == "dp_cp") return dp_cp;
  if (name == "mp") return mp;
  if (name == "tp_cp") return tp_cp;
  if (name == "tp_dp") return tp_dp;
  if (name == "tp_dp_cp") return tp_dp_cp;
  if (name == "ep") return ep;
  if (name == "expt_tp") return expt_tp;
  if (name == "expt_dp") return expt_dp;
  if (name == "tp_ep") return tp_ep;
  if (name == "tp_ep_pp") return tp_ep_pp;
  if (name == "embd") return embd;
  if (name == "pos_embd") return pos_embd;
  throw std::out_of_range("ProcessGroupCollection has no field '" + std::string(name) + "'");
}

const std::shared_ptr<ProcessGroup>& ProcessGroupCollection::get(std::string_view name) const {
  return const_cast<ProcessGroupCollection*>(this)->get(name);
}

}  // namespace gridlock
