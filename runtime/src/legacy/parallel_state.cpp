// The legacy globals. This file is the one place that reads a process-wide default
// (MPI_COMM_WORLD), on purpose: it is what fixtures start from and what gridlock removes.
#include "gridlock/parallel_state.h"

#include "../layout/legacy_strict.h"
#include "gridlock/grid.h"
#include "gridlock/process_group.h"
#include "gridlock/process_group_collection.h"

#include <memory>
#include <mutex>
#include <stdexcept>

namespace gridlock::parallel_state {
namespace {

struct State {
  std::shared_ptr<ProcessGroup> world;
  std::unique_ptr<Grid> grid;
};

State& state() {
  static State s;
  return s;
}

std::mutex& state_mutex() {
  static std::mutex m;
  return m;
}

// Every read goes through here: strict mode first, then "initialized?".
const Grid& grid_for(const char* accessor) {
  legacy::check_not_strict(accessor);
  if (!state().grid)
    throw std::logic_error(std::string(accessor) +
                           "(): model parallel is not initialized; call "
                           "initialize_model_parallel() first");
  return *state().grid;
}

std::shared_ptr<ProcessGroup> group_for(const char* accessor, const char* family) {
  std::shared_ptr<ProcessGroup> g = grid_for(accessor).group(family);
  if (!g)
    throw std::logic_error(std::string(accessor) + "(): this rank is not a member of any " +
                           family + " group");
  return g;
}

}  // namespace

void initialize_model_parallel(const ModelParallelOptions& options) {
  std::lock_guard lock(state_mutex());
  if (state().grid)
    throw std::logic_error(
        "initialize_model_parallel(): already initialized; call destroy_model_parallel() first");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw std::logic_error("initialize_model_parallel(): MPI is not initialized");
  if (!state().world) state().world = ProcessGroup::from_comm(MPI_COMM_WORLD, "world");
  GridOptions grid;
  grid.world = state().world->size();
  grid.tp = options.tp;
  grid.pp = options.pp;
  grid.cp = options.cp;
  grid.ep = options.ep;
  grid.etp = options.etp;
  grid.order = options.order;
  state().grid = std::make_unique<Grid>(state().world, grid);
}

void initialize_model_parallel(int tp, int pp, int cp, int ep, int etp) {
  ModelParallelOptions options;
  options.tp = tp;
  options.pp = pp;
  options.cp = cp;
  options.ep = ep;
  options.etp = etp;
  initialize_model_parallel(options);
}

bool model_parallel_is_initialized() {
  std::lock_guard lock(state_mutex());
  return state().grid != nullptr;
}

void destroy_model_parallel() {
  std::lock_guard lock(state_mutex());
  state().grid.reset();
}

#define GRIDLOCK_LEGACY_DEFINE(NAME, FAMILY)                                                      \
  std::shared_ptr<ProcessGroup> get_##NAME##_group() {                                            \
    return group_for("gridlock::parallel_state::get_" #NAME "_group", FAMILY);                    \
  }                                                                                               \
  int get_##NAME##_world_size() {                                                                 \
    return group_for("gridlock::parallel_state::get_" #NAME "_world_size", FAMILY)->size();       \
  }                                                                                               \
  int get_##NAME##_rank() {                                                                       \
    return group_for("gridlock::parallel_state::get_" #NAME "_rank", FAMILY)->rank();             \
  }                                                                                               \
  int get_##NAME##_src_rank() {                                                                   \
    return group_for("gridlock::parallel_state::get_" #NAME "_src_rank", FAMILY)->global_rank(0); \
  }

GRIDLOCK_LEGACY_DEFINE(tensor_model_parallel, "tp")
GRIDLOCK_LEGACY_DEFINE(pipeline_model_parallel, "pp")
GRIDLOCK_LEGACY_DEFINE(context_parallel, "cp")
GRIDLOCK_LEGACY_DEFINE(data_parallel, "dp")
GRIDLOCK_LEGACY_DEFINE(data_parallel_with_context, "dp_cp")
GRIDLOCK_LEGACY_DEFINE(model_parallel, "mp")
GRIDLOCK_LEGACY_DEFINE(tensor_and_context_parallel, "tp_cp")
GRIDLOCK_LEGACY_DEFINE(tensor_data_context_parallel, "tp_dp_cp")
GRIDLOCK_LEGACY_DEFINE(expert_model_parallel, "ep")
GRIDLOCK_LEGACY_DEFINE(expert_tensor_parallel, "expt_tp")
GRIDLOCK_LEGACY_DEFINE(expert_data_parallel, "expt_dp")
GRIDLOCK_LEGACY_DEFINE(embedding, "embd")

#undef GRIDLOCK_LEGACY_DEFINE

bool is_pipeline_first_stage() {
  return grid_for("gridlock::parallel_state::is_pipeline_first_stage").is_pipeline_first_stage();
}

bool is_pipeline_last_stage() {
  return grid_for("gridlock::parallel_state::is_pipeline_last_stage").is_pipeline_last_stage();
}

}  // namespace gridlock::parallel_state

namespace gridlock {

ProcessGroupCollection ProcessGroupCollection::use_mpu_process_groups() {
  return parallel_state::grid_for("gridlock::ProcessGroupCollection::use_mpu_process_groups")
      .groups();
}

}  // namespace gridlock
