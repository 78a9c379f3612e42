// Tensor-parallel shard widths with per-model metadata (DeepSpeed AutoTP's rules), never
// process-wide state: two models in one process each pass their own ShardingMetadata.
#pragma once

#include <string_view>
#include <vector>

namespace gridlock {

struct ShardingMetadata {
  int num_kv_heads = 0;         // 0: unknown, every width uses the grain split
  int num_attention_heads = 0;  // needed by the fused q-then-kv layout
  int hidden_size = 0;          // needed by the fused q-then-kv layout
  int grain = 1;                // grain split unit (DeepSpeed's tp_grain_size)
};

// True for names AutoTP keeps off the kv-head split: names containing "mlp", "gate_proj",
// "up_proj", "down_proj", "w1", "w2" or "w3", and exactly "lm_head" or "embed_out".
bool uses_grain_split(std::string_view name);

// Width of rank `rank` of `world` for a dimension of `total`:
// - kv-head split when metadata has kv heads, total divides by them and the name is not
//   excluded: rank r gets kv/m + (r < kv%m) heads' worth, total * heads_r / kv;
// - otherwise the grain split: g, rem = divmod(total, grain); rank r gets
//   (g/m + (r < g%m)) * grain and the last rank also rem; a plain near-even split when
//   total < grain.
// Widths over all ranks add up to total; zero widths are legal. Throws std::invalid_argument.
int shard_size(int total, int world, int rank, std::string_view name,
               const ShardingMetadata& metadata);
std::vector<int> shard_sizes(int total, int world, std::string_view name,
                             const ShardingMetadata& metadata);
// Exclusive prefix sums: where each rank's slice starts.
std::vector<int> shard_offsets(const std::vector<int>& sizes);

// A slice [offset, offset + width) of a fused dimension.
struct Segment {
  int offset = 0;
  int width = 0;
  friend bool operator==(const Segment&, const Segment&) = default;
};

enum class FusedQkvLayout {
  Thirds,   // [q | k | v], equal thirds, each third sharded alike
  QThenKv,  // [q (heads*d) | k (kv*d) | v (kv*d)]; with one kv head (multi-query) the k|v
            // block is replicated on every rank and only q is split, by attention heads
};

// The segments of the fused dimension (width `total`) rank `rank` holds, in order.
std::vector<Segment> fused_qkv_segments(FusedQkvLayout layout, int total, int world, int rank,
                                        const ShardingMetadata& metadata);

}  // namespace gridlock
