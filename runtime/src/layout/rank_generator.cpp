#include "gridlock/rank_generator.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gridlock {
namespace {

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, '-')) out.push_back(item);
  return out;
}

std::vector<int> prefix_product(const std::vector<int>& a) {
  std::vector<int> r{1};
  for (int v : a) r.push_back(r.back() * v);
  return r;
}

// Coordinates of `index` in a row of `shape`, first dimension fastest.
std::vector<int> decompose(int index, const std::vector<int>& shape) {
  std::vector<int> stride = prefix_product(shape);
  std::vector<int> idx(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) idx[i] = (index / stride[i]) % shape[i];
  return idx;
}

int inner(const std::vector<int>& a, const std::vector<int>& b) {
  int s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

RankGroups masked_orthogonal_rank_groups(int world, const std::vector<int>& sizes,
                                         const std::vector<bool>& mask) {
  std::vector<int> masked_shape, unmasked_shape, masked_stride, unmasked_stride;
  std::vector<int> global_stride = prefix_product(sizes);
  for (size_t i = 0; i < sizes.size(); ++i) {
    (mask[i] ? masked_shape : unmasked_shape).push_back(sizes[i]);
    (mask[i] ? masked_stride : unmasked_stride).push_back(global_stride[i]);
  }
  int group_size = prefix_product(masked_shape).back();
  int groups = world / group_size;
  RankGroups out;
  for (int g = 0; g < groups; ++g) {
    std::vector<int> gidx = decompose(g, unmasked_shape);
    std::vector<int> ranks;
    for (int r = 0; r < group_size; ++r)
      ranks.push_back(inner(decompose(r, masked_shape), masked_stride) +
                      inner(gidx, unmasked_stride));
    out.push_back(std::move(ranks));
  }
  return out;
}

RankGenerator::RankGenerator(int tp, int ep, int dp, int pp, int cp, const std::string& order,
                             int rank_offset)
    : rank_offset_(rank_offset) {
  const std::vector<std::pair<std::string, int>> dims = {
      {"tp", tp}, {"ep", ep}, {"dp", dp}, {"pp", pp}, {"cp", cp}};
  for (auto& [name, size] : dims)
    if (size < 1)
      throw std::invalid_argument("parallel size " + name + " must be >= 1, got " +
                                  std::to_string(size));
  if (rank_offset < 0) throw std::invalid_argument("rank offset must be >= 0");
  std::vector<std::string> ordered = split_names(order);
  for (const auto& name : ordered) {
    auto it = std::find_if(dims.begin(), dims.end(), [&](auto& d) { return d.first == name; });
    if (it == dims.end())
      throw std::invalid_argument("order '" + order + "' names unknown dimension '" + name +
                                  "' (known: tp, cp, ep, dp, pp)");
    if (std::count(ordered.begin(), ordered.end(), name) > 1)
      throw std::invalid_argument("order '" + order + "' names '" + name + "' twice");
  }
  // Size-1 dimensions may be left out of the order; they go last, where they change nothing.
  for (auto& [name, size] : dims) {
    if (std::find(ordered.begin(), ordered.end(), name) != ordered.end()) continue;
    if (size != 1)
      throw std::invalid_argument("order '" + order + "' leaves out " + name + " of size " +
                                  std::to_string(size));
    ordered.push_back(name);
  }
  for (const auto& name : ordered) {
    names_.push_back(name);
    sizes_.push_back(
        std::find_if(dims.begin(), dims.end(), [&](auto& d) { return d.first == name; })->second);
    world_size_ *= sizes_.back();
  }
}

RankGroups RankGenerator::get_ranks(const std::string& token) const {
  std::vector<std::string> parts = split_names(token);
  for (const auto& p : parts)
    if (std::find(names_.begin(), names_.end(), p) == names_.end())
      throw std::invalid_argument("unknown dimension '" + p + "' in '" + token + "'");
  std::vector<bool> mask;
  for (const auto& n : names_)
    mask.push_back(std::find(parts.begin(), parts.end(), n) != parts.end());
  RankGroups groups = masked_orthogonal_rank_groups(world_size_, sizes_, mask);
  for (auto& g : groups)
    for (int& r : g) r += rank_offset_;
  return groups;
}

}  // namespace gridlock
