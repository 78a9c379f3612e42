#include "gridlock/collectives.h"
#include "gridlock/layers.h"
#include "gridlock/process_group.h"

#include <stdexcept>

namespace gridlock {

ColumnParallelLinear::ColumnParallelLinear(int in_features, int out_features, std::string name,
                                           const ShardingMetadata& metadata,
                                           std::shared_ptr<ProcessGroup> tp, bool gather_output)
    : in_(in_features), out_(out_features), name_(std::move(name)), tp_(std::move(tp)),
      gather_(gather_output) {
  if (!tp_) throw std::invalid_argument("ColumnParallelLinear '" + name_ + "' needs a tp group");
  widths_ = shard_sizes(out_, tp_->size(), name_, metadata);
}

int ColumnParallelLinear::local_out() const { return widths_[tp_->rank()]; }
int ColumnParallelLinear::local_offset() const { return shard_offsets(widths_)[tp_->rank()]; }

void ColumnParallelLinear::load_full(std::span<const float> weight, std::span<const float> bias) {
  if (weight.size() != static_cast<std::size_t>(out_) * in_ ||
      (!bias.empty() && bias.size() != static_cast<std::size_t>(out_)))
    throw std::invalid_argument("ColumnParallelLinear '" + name_ + "': full weight shape");
  auto first = weight.begin() + static_cast<std::ptrdiff_t>(local_offset()) * in_;
  weight_.assign(first, first + static_cast<std::ptrdiff_t>(local_out()) * in_);
  bias_.clear();
  if (!bias.empty())
    bias_.assign(bias.begin() + local_offset(), bias.begin() + local_offset() + local_out());
}

std::vector<float> ColumnParallelLinear::forward(std::span<const float> x, int batch) const {
  std::vector<float> y = linear(x, batch, in_, weight_, local_out(), bias_);
  if (!gather_) return y;
  return all_gather_columns<float>(y, batch, widths_, *tp_);
}

}  // namespace gridlock
