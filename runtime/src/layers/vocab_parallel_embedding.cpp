#include "gridlock/collectives.h"
#include "gridlock/layers.h"
#include "gridlock/process_group.h"

#include <stdexcept>

namespace gridlock {

VocabParallelEmbedding::VocabParallelEmbedding(int vocab, int dim, std::shared_ptr<ProcessGroup> tp,
                                               int grain)
    : vocab_(vocab), dim_(dim), tp_(std::move(tp)) {
  if (!tp_) throw std::invalid_argument("VocabParallelEmbedding needs a tp group");
  ShardingMetadata rows;  // vocabulary rows never follow kv heads
  rows.grain = grain;
  widths_ = shard_sizes(vocab_, tp_->size(), "embed_tokens", rows);
}

int VocabParallelEmbedding::vocab_begin() const { return shard_offsets(widths_)[tp_->rank()]; }
int VocabParallelEmbedding::vocab_end() const { return vocab_begin() + widths_[tp_->rank()]; }

void VocabParallelEmbedding::load_full(std::span<const float> table) {
  if (table.size() != static_cast<std::size_t>(vocab_) * dim_)
    throw std::invalid_argument("VocabParallelEmbedding: full table shape");
  table_.assign(table.begin() + static_cast<std::ptrdiff_t>(vocab_begin()) * dim_,
                table.begin() + static_cast<std::ptrdiff_t>(vocab_end()) * dim_);
}

std::vector<float> VocabParallelEmbedding::forward(std::span<const int> ids) const {
  std::vector<float> y(ids.size() * dim_, 0.0f);
  for (std::size_t n = 0; n < ids.size(); ++n) {
    if (ids[n] < 0 || ids[n] >= vocab_)
      throw std::out_of_range("token id " + std::to_string(ids[n]) + " outside vocabulary of " +
                              std::to_string(vocab_));
    if (ids[n] < vocab_begin() || ids[n] >= vocab_end()) continue;
    const float* row = table_.data() + static_cast<std::size_t>(ids[n] - vocab_begin()) * dim_;
    std::copy(row, row + dim_, y.begin() + n * dim_);
  }
  all_reduce<float>(y, ReduceOp::Sum, *tp_);
  return y;
}

}  // namespace gridlock
