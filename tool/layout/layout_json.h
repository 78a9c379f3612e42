// The JSON documents `gridlock grid` and `gridlock shard` print (docs/contracts.md).
#pragma once

#include "gridlock/grid_layout.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace gridlock::layout_cli {

// {"tp": [[0,1],...], "dp": ..., ...}: every family of grid_group_names(), in that order.
nlohmann::ordered_json grid_json(const GridLayout& layout);
// {"sizes": [...]}
nlohmann::ordered_json shard_json(const std::vector<int>& sizes);

}  // namespace gridlock::layout_cli
