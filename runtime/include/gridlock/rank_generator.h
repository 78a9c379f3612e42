// Megatron-core's rank generator: pure arithmetic from parallel sizes to rank lists. No MPI,
// no process state; the same numbers feed Grid (which builds communicators) and `gridlock grid`.
#pragma once

#include <string>
#include <vector>

namespace gridlock {

using RankGroups = std::vector<std::vector<int>>;

// Sizes along each named dimension. world = tp * cp * ep * dp * pp.
class RankGenerator {
 public:
  // `order` names the dimensions joined by '-', the first varying fastest. A dimension of size
  // 1 may be left out of `order`; one larger than 1 may not. Every rank is shifted by
  // `rank_offset`, so grids built with disjoint offsets cover disjoint rank ranges.
  RankGenerator(int tp, int ep, int dp, int pp, int cp, const std::string& order,
                int rank_offset = 0);

  // The groups spanned by the dimensions in `token` (e.g. "tp", "tp-pp", "dp-cp"; the order of
  // names in the token does not matter). Within a group ranks follow `order`.
  RankGroups get_ranks(const std::string& token) const;

  int world_size() const { return world_size_; }
  int rank_offset() const { return rank_offset_; }
  const std::vector<std::string>& order() const { return names_; }

 private:
  std::vector<std::string> names_;  // dimension names in order
  std::vector<int> sizes_;          // their sizes
  int world_size_ = 1;
  int rank_offset_ = 0;
};

// The groups of a world of `sizes` (product = world) where the dimensions with mask[i] set vary
// within a group and the others select the group. Megatron's
// generate_masked_orthogonal_rank_groups, exposed for tests.
RankGroups masked_orthogonal_rank_groups(int world, const std::vector<int>& sizes,
                                         const std::vector<bool>& mask);

}  // namespace gridlock
