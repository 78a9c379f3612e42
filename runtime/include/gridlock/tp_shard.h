// Legacy process-wide sharding state, the kind that breaks when two models live in one
// process: the second model's kv-head count overwrites the first one's. New code passes a
// ShardingMetadata per model instead. rules/gridlock-legacy.json lists these as global_state.
#pragma once

namespace gridlock::tp_shard {

extern int num_kv_heads;         // 0: not set
extern int num_attention_heads;  // 0: not set
extern int hidden_size;          // 0: not set

// Shard width of `total` for rank `rank` of `world` from the globals above (AutoTP rules).
int get_shard_size(int total, int world, int rank, const char* name);

}  // namespace gridlock::tp_shard
