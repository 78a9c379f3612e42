// Tensor-parallel layers over an explicit tp group, forward on host. Weights are row-major
// [out x in]; y = x W^T + b. Each layer keeps only its rank's slice, cut from the full
// weight by load_full(), so tests can compare against one unsharded matmul.
#pragma once

#include "gridlock/sharding.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace gridlock {

class ProcessGroup;

// What column- and row-parallel linears share: one of their two dimensions split over the tp
// group (widths by shard_sizes(dim, tp, name, metadata)), this rank's slice of it, and the
// check of a full weight's shape.
class TpSplitLinear {
 public:
  int in_features() const { return in_; }
  int out_features() const { return out_; }
  const std::vector<int>& widths() const { return widths_; }  // the split dimension by tp rank
  int local_offset() const;
  const std::vector<float>& weight() const { return weight_; }
  const std::vector<float>& bias() const { return bias_; }
  const ProcessGroup& group() const { return *tp_; }

 protected:
  // `layer` names the class in errors; `split` is in_features or out_features.
  TpSplitLinear(const char* layer, int in_features, int out_features, int split, std::string name,
                const ShardingMetadata& metadata, std::shared_ptr<ProcessGroup> tp);
  int local_width() const;
  // Throws unless `weight` is [out x in] and `bias` is empty or [out].
  void check_full(std::span<const float> weight, std::span<const float> bias) const;

  const char* layer_;
  int in_, out_;
  std::string name_;
  std::shared_ptr<ProcessGroup> tp_;
  std::vector<int> widths_;
  std::vector<float> weight_, bias_;
};

// Splits the output features; forward gives this rank's columns, or all of them with
// gather_output (an uneven all-gather over the output widths). weight() is [local_out x in],
// bias() [local_out] or empty.
class ColumnParallelLinear : public TpSplitLinear {
 public:
  ColumnParallelLinear(int in_features, int out_features, std::string name,
                       const ShardingMetadata& metadata, std::shared_ptr<ProcessGroup> tp,
                       bool gather_output = false);
  void load_full(std::span<const float> weight, std::span<const float> bias);
  std::vector<float> forward(std::span<const float> x, int batch) const;

  int local_out() const { return local_width(); }
  bool gather_output() const { return gather_; }

 private:
  bool gather_;
};

// Splits the input features; the partial products are all-reduced and the bias added once.
// With input_is_parallel the input is this rank's slice [batch x local_in], else the full
// input [batch x in], from which the layer takes its slice. weight() is [out x local_in],
// bias() [out] or empty.
class RowParallelLinear : public TpSplitLinear {
 public:
  RowParallelLinear(int in_features, int out_features, std::string name,
                    const ShardingMetadata& metadata, std::shared_ptr<ProcessGroup> tp,
                    bool input_is_parallel = true);
  void load_full(std::span<const float> weight, std::span<const float> bias);
  std::vector<float> forward(std::span<const float> x, int batch) const;

  int local_in() const { return local_width(); }
  bool input_is_parallel() const { return input_parallel_; }
  // The rank's slice of a full input [batch x in].
  std::vector<float> slice_input(std::span<const float> x, int batch) const;

 private:
  bool input_parallel_;
};

// The output projection split on the hidden (input) dimension, as AutoTP shards lm_head: a
// row-parallel linear named "lm_head" (so the grain split, never the kv-head split) that takes
// the full hidden state and returns full logits.
class LmHead : public RowParallelLinear {
 public:
  LmHead(int hidden, int vocab, const ShardingMetadata& metadata, std::shared_ptr<ProcessGroup> tp)
      : RowParallelLinear(hidden, vocab, "lm_head", metadata, std::move(tp), false) {}
};

// Rows of the embedding table split by vocabulary range; ids outside the rank's range give
// zeros, and an all-reduce completes every row.
class VocabParallelEmbedding {
 public:
  VocabParallelEmbedding(int vocab, int dim, std::shared_ptr<ProcessGroup> tp, int grain = 1);
  void load_full(std::span<const float> table);                // [vocab x dim]
  std::vector<float> forward(std::span<const int> ids) const;  // [ids x dim]

  int vocab() const { return vocab_; }
  int dim() const { return dim_; }
  const std::vector<int>& widths() const { return widths_; }  // vocab rows by tp rank
  int vocab_begin() const;
  int vocab_end() const;
  const std::vector<float>& table() const { return table_; }  // [local rows x dim]
  const ProcessGroup& group() const { return *tp_; }

 private:
  int vocab_, dim_;
  std::shared_ptr<ProcessGroup> tp_;
  std::vector<int> widths_;
  std::vector<float> table_;
};

// y[batch x out] = x[batch x in] W^T (+ bias), W row-major [out x in]. The unsharded
// reference the layers are tested against, and their local kernel.
std::vector<float> linear(std::span<const float> x, int batch, int in,
                          std::span<const float> weight, int out, std::span<const float> bias);

}  // namespace gridlock
