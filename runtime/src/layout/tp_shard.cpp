// The legacy globals, kept only so code that has not migrated still runs.
#include "gridlock/tp_shard.h"

#include "gridlock/sharding.h"
#include "legacy_strict.h"

namespace gridlock::tp_shard {

int num_kv_heads = 0;
int num_attention_heads = 0;
int hidden_size = 0;

int get_shard_size(int total, int world, int rank, const char* name) {
  legacy::check_not_strict("gridlock::tp_shard::get_shard_size");
  ShardingMetadata m;
  m.num_kv_heads = num_kv_heads;
  m.num_attention_heads = num_attention_heads;
  m.hidden_size = hidden_size;
  return shard_size(total, world, rank, name ? name : "", m);
}

}  // namespace gridlock::tp_shard
