// The full rank layout of one grid: every named group family (tp, dp, pp, ..., the expert grid
// and the embedding groups) as lists of ranks. Pure arithmetic, no MPI: what `gridlock grid`
// prints and what Grid turns into communicators.
#pragma once

#include "gridlock/rank_generator.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock {

struct GridOptions {
  int world = 1;  // ranks in this grid
  int tp = 1;
  int pp = 1;
  int cp = 1;
  int ep = 1;   // expert model parallel size (expert grid only)
  int etp = 0;  // expert tensor parallel size (expert grid only); 0: same as tp (Megatron)
  std::string order = "tp-cp-ep-dp-pp";
  int rank_offset = 0;  // first rank of this grid in its parent
};

// etp with 0 resolved to tp.
int expert_tensor_parallel_size(const GridOptions& options);
// Derived sizes; throws std::invalid_argument naming the rule a bad option breaks.
int data_parallel_size(const GridOptions& options);         // world / (tp * cp * pp)
int expert_data_parallel_size(const GridOptions& options);  // world / (etp * ep * pp)
void validate(const GridOptions& options);

// The group families every grid has, in the order `gridlock grid` prints them.
// Dense grid: tp, dp, pp, cp, mp (tp-pp), dp_cp, tp_cp, tp_dp, tp_dp_cp.
// Expert grid (etp, ep, expert dp, same pp): ep, expt_tp, expt_dp, tp_ep, tp_ep_pp.
// Pipeline ends: embd (first and last stage of each pp group), pos_embd (first stage).
const std::vector<std::string>& grid_group_names();

class GridLayout {
 public:
  explicit GridLayout(const GridOptions& options);

  const GridOptions& options() const { return options_; }
  int dp() const { return dp_; }
  int expt_dp() const { return expt_dp_; }

  // Every group of family `name`; throws std::out_of_range for an unknown name.
  const RankGroups& groups(std::string_view name) const;
  // The group of family `name` that holds `rank`, or an empty list when none does (embd,
  // pos_embd and ranks outside the grid).
  std::vector<int> group_of(std::string_view name, int rank) const;
  bool contains(int rank) const;

 private:
  GridOptions options_;
  int dp_ = 1;
  int expt_dp_ = 1;
  std::map<std::string, RankGroups, std::less<>> groups_;
};

}  // namespace gridlock
