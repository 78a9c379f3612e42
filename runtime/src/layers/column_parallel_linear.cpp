#include "gridlock/collectives.h"
#include "gridlock/layers.h"
#include "gridlock/process_group.h"

namespace gridlock {

ColumnParallelLinear::ColumnParallelLinear(int in_features, int out_features, std::string name,
                                           const ShardingMetadata& metadata,
                                           std::shared_ptr<ProcessGroup> tp, bool gather_output)
    : TpSplitLinear("ColumnParallelLinear", in_features, out_features, out_features,
                    std::move(name), metadata, std::move(tp)),
      gather_(gather_output) {}

void ColumnParallelLinear::load_full(std::span<const float> weight, std::span<const float> bias) {
  check_full(weight, bias);
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
