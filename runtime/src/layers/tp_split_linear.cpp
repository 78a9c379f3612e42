#include "gridlock/layers.h"
#include "gridlock/process_group.h"

#include <stdexcept>

namespace gridlock {

TpSplitLinear::TpSplitLinear(const char* layer, int in_features, int out_features, int split,
                             std::string name, const ShardingMetadata& metadata,
                             std::shared_ptr<ProcessGroup> tp)
    : layer_(layer),
      in_(in_features),
      out_(out_features),
      name_(std::move(name)),
      tp_(std::move(tp)) {
  if (!tp_) throw std::invalid_argument(std::string(layer_) + " '" + name_ + "' needs a tp group");
  widths_ = shard_sizes(split, tp_->size(), name_, metadata);
}

int TpSplitLinear::local_width() const { return widths_[tp_->rank()]; }
int TpSplitLinear::local_offset() const { return shard_offsets(widths_)[tp_->rank()]; }

void TpSplitLinear::check_full(std::span<const float> weight, std::span<const float> bias) const {
  if (weight.size() != static_cast<std::size_t>(out_) * in_ ||
      (!bias.empty() && bias.size() != static_cast<std::size_t>(out_)))
    throw std::invalid_argument(std::string(layer_) + " '" + name_ + "': full weight shape");
}

}  // namespace gridlock
