#include "gridlock/sharding.h"

#include <array>
#include <stdexcept>
#include <string>

namespace gridlock {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

int near_even(int total, int world, int rank) {
  return total / world + (rank < total % world ? 1 : 0);
}

}  // namespace

bool uses_grain_split(std::string_view name) {
  static constexpr std::array<std::string_view, 7> parts = {
      "mlp", "gate_proj", "up_proj", "down_proj", "w1", "w2", "w3"};
  for (auto p : parts)
    if (name.find(p) != std::string_view::npos) return true;
  return name == "lm_head" || name == "embed_out";
}

int shard_size(int total, int world, int rank, std::string_view name, const ShardingMetadata& m) {
  require(total >= 0, "shard total must be >= 0, got " + std::to_string(total));
  require(world >= 1, "shard world must be >= 1, got " + std::to_string(world));
  require(rank >= 0 && rank < world,
          "shard rank " + std::to_string(rank) + " is outside [0, " + std::to_string(world) + ")");
  require(m.grain >= 1, "grain must be >= 1, got " + std::to_string(m.grain));
  require(m.num_kv_heads >= 0, "kv heads must be >= 0, got " + std::to_string(m.num_kv_heads));

  int kv = m.num_kv_heads;
  if (kv > 0 && total % kv == 0 && !uses_grain_split(name)) {
    int heads = near_even(kv, world, rank);
    return static_cast<int>(static_cast<long long>(total) * heads / kv);
  }
  if (total < m.grain) return near_even(total, world, rank);
  int grains = total / m.grain;
  int rem = total % m.grain;
  return near_even(grains, world, rank) * m.grain + (rank == world - 1 ? rem : 0);
}

std::vector<int> shard_sizes(int total, int world, std::string_view name,
                             const ShardingMetadata& m) {
  require(world >= 1, "shard world must be >= 1, got " + std::to_string(world));
  std::vector<int> sizes;
  for (int r = 0; r < world; ++r) sizes.push_back(shard_size(total, world, r, name, m));
  return sizes;
}

std::vector<int> shard_offsets(const std::vector<int>& sizes) {
  std::vector<int> offsets;
  int at = 0;
  for (int s : sizes) {
    offsets.push_back(at);
    at += s;
  }
  return offsets;
}

std::vector<Segment> fused_qkv_segments(FusedQkvLayout layout, int total, int world, int rank,
                                        const ShardingMetadata& m) {
  require(
      world >= 1 && rank >= 0 && rank < world,
      "fused qkv rank " + std::to_string(rank) + " is outside [0, " + std::to_string(world) + ")");
  if (layout == FusedQkvLayout::Thirds) {
    require(total % 3 == 0, "fused qkv width " + std::to_string(total) + " is not 3 thirds");
    int third = total / 3;
    std::vector<int> sizes = shard_sizes(third, world, "qkv", m);
    int off = shard_offsets(sizes)[rank];
    return {{off, sizes[rank]}, {third + off, sizes[rank]}, {2 * third + off, sizes[rank]}};
  }
  require(m.num_attention_heads > 0 && m.num_kv_heads > 0 && m.hidden_size > 0,
          "the q-then-kv layout needs attention heads, kv heads and hidden size");
  require(m.hidden_size % m.num_attention_heads == 0,
          "hidden size " + std::to_string(m.hidden_size) + " is not divisible by " +
              std::to_string(m.num_attention_heads) + " attention heads");
  require(m.num_attention_heads % m.num_kv_heads == 0,
          "attention heads " + std::to_string(m.num_attention_heads) +
              " are not a multiple of kv heads " + std::to_string(m.num_kv_heads));
  int d = m.hidden_size / m.num_attention_heads;
  int q = m.num_attention_heads * d;
  int kv = m.num_kv_heads * d;
  require(total == q + 2 * kv, "fused q-then-kv width " + std::to_string(total) +
                                   " is not heads*d + 2*kv*d = " + std::to_string(q + 2 * kv));
  if (m.num_kv_heads == 1) {
    // Multi-query: one k|v head every rank needs whole; q splits by attention heads.
    std::vector<int> sizes;
    for (int r = 0; r < world; ++r) sizes.push_back(near_even(m.num_attention_heads, world, r) * d);
    return {{shard_offsets(sizes)[rank], sizes[rank]}, {q, 2 * kv}};
  }
  // Grouped-query: a rank keeps whole kv groups, with the q heads that attend to them.
  std::vector<int> qs = shard_sizes(q, world, "q_proj", m);
  std::vector<int> ks = shard_sizes(kv, world, "k_proj", m);
  int qo = shard_offsets(qs)[rank], ko = shard_offsets(ks)[rank];
  return {{qo, qs[rank]}, {q + ko, ks[rank]}, {q + kv + ko, ks[rank]}};
}

}  // namespace gridlock
