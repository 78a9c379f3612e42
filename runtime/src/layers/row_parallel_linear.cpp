#include "gridlock/collectives.h"
#include "gridlock/layers.h"
#include "gridlock/process_group.h"

#include <stdexcept>

namespace gridlock {

RowParallelLinear::RowParallelLinear(int in_features, int out_features, std::string name,
                                     const ShardingMetadata& metadata,
                                     std::shared_ptr<ProcessGroup> tp, bool input_is_parallel)
    : TpSplitLinear("RowParallelLinear", in_features, out_features, in_features, std::move(name),
                    metadata, std::move(tp)),
      input_parallel_(input_is_parallel) {}

void RowParallelLinear::load_full(std::span<const float> weight, std::span<const float> bias) {
  check_full(weight, bias);
  weight_.resize(static_cast<std::size_t>(out_) * local_in());
  for (int o = 0; o < out_; ++o)
    for (int i = 0; i < local_in(); ++i)
      weight_[static_cast<std::size_t>(o) * local_in() + i] =
          weight[static_cast<std::size_t>(o) * in_ + local_offset() + i];
  bias_.assign(bias.begin(), bias.end());
}

std::vector<float> RowParallelLinear::slice_input(std::span<const float> x, int batch) const {
  if (x.size() != static_cast<std::size_t>(batch) * in_)
    throw std::invalid_argument("RowParallelLinear '" + name_ + "': full input shape");
  std::vector<float> local(static_cast<std::size_t>(batch) * local_in());
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < local_in(); ++i)
      local[static_cast<std::size_t>(b) * local_in() + i] =
          x[static_cast<std::size_t>(b) * in_ + local_offset() + i];
  return local;
}

std::vector<float> RowParallelLinear::forward(std::span<const float> x, int batch) const {
  std::vector<float> local;
  if (!input_parallel_) {
    local = slice_input(x, batch);
    x = local;
  }
  // The bias joins after the reduction, or it would be counted once per rank.
  std::vector<float> y = linear(x, batch, local_in(), weight_, out_, {});
  all_reduce<float>(y, ReduceOp::Sum, *tp_);
  if (!bias_.empty())
    for (int b = 0; b < batch; ++b)
      for (int o = 0; o < out_; ++o) y[static_cast<std::size_t>(b) * out_ + o] += bias_[o];
  return y;
}

}  // namespace gridlock
