// A grid value: the layout of one model's ranks plus the communicators for this process's
// groups. Pass it (or its groups()) around; two grids live side by side in one process.
#pragma once

#include "gridlock/grid_layout.h"
#include "gridlock/process_group_collection.h"

#include <memory>
#include <string_view>

namespace gridlock {

class ProcessGroup;

class Grid {
 public:
  // Builds the grid over ranks [rank_offset, rank_offset + world) of `parent`. Collective over
  // those ranks only; other ranks of `parent` get a grid without groups, without
  // communicating. Throws std::invalid_argument when the options do not fit the parent.
  Grid(std::shared_ptr<ProcessGroup> parent, const GridOptions& options);

  const GridLayout& layout() const { return layout_; }
  const GridOptions& options() const { return layout_.options(); }
  bool has_this_rank() const { return root_ != nullptr; }
  // The grid's ranks as one group, and this rank's group of each family (null where this rank
  // has none: outside the grid, or not an embedding rank).
  const std::shared_ptr<ProcessGroup>& root() const { return root_; }
  const ProcessGroupCollection& groups() const { return groups_; }
  std::shared_ptr<ProcessGroup> group(std::string_view name) const { return groups_.get(name); }

  bool is_pipeline_first_stage() const;
  bool is_pipeline_last_stage() const;

 private:
  GridLayout layout_;
  std::shared_ptr<ProcessGroup> parent_;
  std::shared_ptr<ProcessGroup> root_;
  ProcessGroupCollection groups_;
};

}  // namespace gridlock
