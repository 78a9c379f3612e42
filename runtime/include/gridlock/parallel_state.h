// The legacy global API: process-wide groups set once by initialize_model_parallel() and read
// from anywhere. It exists on purpose, as what fixtures start from and what gridlock finds and
// removes. New code takes a ProcessGroupCollection instead. rules/gridlock-legacy.json
// describes every function here; keep the two in step.
#pragma once

#include <memory>
#include <string>

namespace gridlock {

class ProcessGroup;

namespace parallel_state {

struct ModelParallelOptions {
  int tp = 1;
  int pp = 1;
  int cp = 1;
  int ep = 1;
  int etp = 1;  // expert tensor parallel size
  std::string order = "tp-cp-ep-dp-pp";
};

// Builds every group over MPI_COMM_WORLD and stores them process-wide.
void initialize_model_parallel(const ModelParallelOptions& options);
void initialize_model_parallel(int tp, int pp = 1, int cp = 1, int ep = 1, int etp = 1);
bool model_parallel_is_initialized();
void destroy_model_parallel();

// Strict mode: every accessor below throws std::logic_error naming itself.
void set_strict_mode(bool strict);
bool strict_mode();

// Per-group accessors: the group, its size, this process's rank in it, and its source rank
// (the global rank of the group's rank 0).
#define GRIDLOCK_LEGACY_GROUP_ACCESSORS(NAME)         \
  std::shared_ptr<ProcessGroup> get_##NAME##_group(); \
  int get_##NAME##_world_size();                      \
  int get_##NAME##_rank();                            \
  int get_##NAME##_src_rank();

GRIDLOCK_LEGACY_GROUP_ACCESSORS(tensor_model_parallel)         // tp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(pipeline_model_parallel)       // pp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(context_parallel)              // cp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(data_parallel)                 // dp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(data_parallel_with_context)    // dp_cp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(model_parallel)                // mp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(tensor_and_context_parallel)   // tp_cp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(tensor_data_context_parallel)  // tp_dp_cp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(expert_model_parallel)         // ep
GRIDLOCK_LEGACY_GROUP_ACCESSORS(expert_tensor_parallel)        // expt_tp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(expert_data_parallel)          // expt_dp
GRIDLOCK_LEGACY_GROUP_ACCESSORS(embedding)                     // embd

#undef GRIDLOCK_LEGACY_GROUP_ACCESSORS

bool is_pipeline_first_stage();
bool is_pipeline_last_stage();

}  // namespace parallel_state
}  // namespace gridlock
