#include "gridlock/grid.h"

#include "gridlock/process_group.h"

#include <stdexcept>

namespace gridlock {

Grid::Grid(std::shared_ptr<ProcessGroup> parent, const GridOptions& options)
    : layout_(options), parent_(std::move(parent)) {
  if (!parent_) throw std::invalid_argument("Grid needs a parent group");
  const GridOptions& o = layout_.options();
  if (o.rank_offset + o.world > parent_->size())
    throw std::invalid_argument("grid ranks [" + std::to_string(o.rank_offset) + ", " +
                                std::to_string(o.rank_offset + o.world) + ") do not fit group '" +
                                parent_->name() + "' of size " + std::to_string(parent_->size()));
  if (!layout_.contains(parent_->rank())) return;

  std::vector<int> members;
  for (int r = 0; r < o.world; ++r) members.push_back(o.rank_offset + r);
  root_ = parent_->subgroup(members, parent_->name() + "/grid@" + std::to_string(o.rank_offset));

  // Layout ranks count in the parent; the grid root numbers its members from 0.
  for (const auto& family : ProcessGroupCollection::field_names()) {
    std::vector<int> mine = layout_.group_of(family, parent_->rank());
    if (mine.empty()) continue;
    for (int& r : mine) r -= o.rank_offset;
    groups_.get(family) = root_->subgroup(mine, root_->name() + "/" + family);
  }
}

bool Grid::is_pipeline_first_stage() const { return groups_.pp && groups_.pp->rank() == 0; }

bool Grid::is_pipeline_last_stage() const {
  return groups_.pp && groups_.pp->rank() == groups_.pp->size() - 1;
}

}  // namespace gridlock
