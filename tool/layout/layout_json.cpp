#include "layout_json.h"

namespace gridlock::layout_cli {

nlohmann::ordered_json grid_json(const GridLayout& layout) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& name : grid_group_names()) out[name] = layout.groups(name);
  return out;
}

nlohmann::ordered_json shard_json(const std::vector<int>& sizes) {
  nlohmann::ordered_json out;
  out["sizes"] = sizes;
  return out;
}

}  // namespace gridlock::layout_cli
