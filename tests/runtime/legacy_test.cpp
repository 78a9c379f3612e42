// The legacy parallel_state API: process-wide groups equal to the explicit grid's, the
// collection shim, and strict mode, in which every read throws and names its accessor.
#include "gridlock/grid.h"
#include "gridlock/parallel_state.h"
#include "gridlock/process_group.h"
#include "gridlock/process_group_collection.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <functional>

namespace gridlock {
namespace {

namespace ps = parallel_state;

class Legacy : public testing::Test {
 protected:
  void TearDown() override {
    ps::set_strict_mode(false);
    ps::destroy_model_parallel();
  }
};

TEST_F(Legacy, AccessorsThrowBeforeInitialization) {
  EXPECT_FALSE(ps::model_parallel_is_initialized());
  try {
    ps::get_tensor_model_parallel_world_size();
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("not initialized"), std::string::npos) << e.what();
  }
}

TEST_F(Legacy, GroupsEqualTheExplicitGrid) {
  auto w = test::world();
  int tp = w->size() % 2 == 0 ? 2 : 1;
  int pp = w->size() % (2 * tp) == 0 ? 2 : 1;
  ps::initialize_model_parallel(tp, pp);
  ASSERT_TRUE(ps::model_parallel_is_initialized());
  GridOptions o;
  o.world = w->size();
  o.tp = tp;
  o.pp = pp;
  o.etp = 1;  // the legacy default
  GridLayout layout(o);
  int r = w->rank();
  EXPECT_EQ(ps::get_tensor_model_parallel_group()->ranks(), layout.group_of("tp", r));
  EXPECT_EQ(ps::get_tensor_model_parallel_world_size(), tp);
  EXPECT_EQ(ps::get_tensor_model_parallel_rank(), r % tp);
  EXPECT_EQ(ps::get_tensor_model_parallel_src_rank(), r / tp * tp);
  EXPECT_EQ(ps::get_pipeline_model_parallel_world_size(), pp);
  EXPECT_EQ(ps::get_pipeline_model_parallel_group()->ranks(), layout.group_of("pp", r));
  EXPECT_EQ(ps::get_data_parallel_world_size(), w->size() / (tp * pp));
  EXPECT_EQ(ps::get_data_parallel_group()->ranks(), layout.group_of("dp", r));
  EXPECT_EQ(ps::get_data_parallel_src_rank(), layout.group_of("dp", r).front());
  EXPECT_EQ(ps::get_context_parallel_world_size(), 1);
  EXPECT_EQ(ps::get_data_parallel_with_context_group()->ranks(), layout.group_of("dp_cp", r));
  EXPECT_EQ(ps::get_model_parallel_group()->ranks(), layout.group_of("mp", r));
  EXPECT_EQ(ps::get_tensor_and_context_parallel_group()->ranks(), layout.group_of("tp_cp", r));
  EXPECT_EQ(ps::get_tensor_data_context_parallel_world_size(), w->size() / pp);
  EXPECT_EQ(ps::get_expert_model_parallel_world_size(), 1);
  EXPECT_EQ(ps::get_expert_tensor_parallel_world_size(), 1);
  EXPECT_EQ(ps::get_expert_data_parallel_group()->ranks(), layout.group_of("expt_dp", r));
  auto pp_group = layout.group_of("pp", r);
  EXPECT_EQ(ps::is_pipeline_first_stage(), pp_group.front() == r);
  EXPECT_EQ(ps::is_pipeline_last_stage(), pp_group.back() == r);
  EXPECT_EQ(ps::get_embedding_group()->ranks(), layout.group_of("embd", r));
  if (w->size() == 8) {
    EXPECT_EQ(ps::get_model_parallel_group()->ranks(),
              r % 4 < 2 ? (std::vector<int>{0, 1, 4, 5}) : (std::vector<int>{2, 3, 6, 7}));
    EXPECT_EQ(ps::get_pipeline_model_parallel_src_rank(), r % 4);
  }
}

TEST_F(Legacy, ShimCollectionHoldsTheSameGroups) {
  ps::initialize_model_parallel(1);
  ProcessGroupCollection c = ProcessGroupCollection::use_mpu_process_groups();
  EXPECT_EQ(c.tp, ps::get_tensor_model_parallel_group());
  EXPECT_EQ(c.pp, ps::get_pipeline_model_parallel_group());
  EXPECT_EQ(c.dp, ps::get_data_parallel_group());
  EXPECT_EQ(c.mp, ps::get_model_parallel_group());
  EXPECT_EQ(c.ep, ps::get_expert_model_parallel_group());
  EXPECT_EQ(c.embd, ps::get_embedding_group());
  for (const auto& name : ProcessGroupCollection::field_names())
    EXPECT_NE(c.get(name), nullptr) << name;
}

TEST_F(Legacy, ReinitializationNeedsDestroyFirst) {
  ps::initialize_model_parallel(1);
  EXPECT_THROW(ps::initialize_model_parallel(1), std::logic_error);
  ps::destroy_model_parallel();
  EXPECT_FALSE(ps::model_parallel_is_initialized());
  ps::initialize_model_parallel(test::world()->size());
  EXPECT_EQ(ps::get_tensor_model_parallel_world_size(), test::world()->size());
}

TEST_F(Legacy, BadSizesAreRefused) {
  EXPECT_THROW(ps::initialize_model_parallel(test::world()->size() + 1), std::invalid_argument);
  EXPECT_FALSE(ps::model_parallel_is_initialized());
}

// Every read throws in strict mode, naming the accessor; explicit code keeps working.
TEST_F(Legacy, StrictModeThrowsNamingTheAccessor) {
  ps::initialize_model_parallel(1);
  ps::set_strict_mode(true);
  EXPECT_TRUE(ps::strict_mode());
  std::vector<std::pair<std::string, std::function<void()>>> reads;
#define GRIDLOCK_READS(NAME)                                                            \
  reads.push_back({"get_" #NAME "_group", [] { ps::get_##NAME##_group(); }});           \
  reads.push_back({"get_" #NAME "_world_size", [] { ps::get_##NAME##_world_size(); }}); \
  reads.push_back({"get_" #NAME "_rank", [] { ps::get_##NAME##_rank(); }});             \
  reads.push_back({"get_" #NAME "_src_rank", [] { ps::get_##NAME##_src_rank(); }});
  GRIDLOCK_READS(tensor_model_parallel)
  GRIDLOCK_READS(pipeline_model_parallel)
  GRIDLOCK_READS(context_parallel)
  GRIDLOCK_READS(data_parallel)
  GRIDLOCK_READS(data_parallel_with_context)
  GRIDLOCK_READS(model_parallel)
  GRIDLOCK_READS(tensor_and_context_parallel)
  GRIDLOCK_READS(tensor_data_context_parallel)
  GRIDLOCK_READS(expert_model_parallel)
  GRIDLOCK_READS(expert_tensor_parallel)
  GRIDLOCK_READS(expert_data_parallel)
  GRIDLOCK_READS(embedding)
#undef GRIDLOCK_READS
  reads.push_back({"is_pipeline_first_stage", [] { ps::is_pipeline_first_stage(); }});
  reads.push_back({"is_pipeline_last_stage", [] { ps::is_pipeline_last_stage(); }});
  reads.push_back(
      {"use_mpu_process_groups", [] { ProcessGroupCollection::use_mpu_process_groups(); }});
  EXPECT_EQ(reads.size(), 51u);
  for (auto& [name, read] : reads) {
    try {
      read();
      ADD_FAILURE() << name << " did not throw in strict mode";
    } catch (const std::logic_error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find("strict mode"), std::string::npos) << what;
      EXPECT_NE(what.find("::" + name + "()"), std::string::npos) << name << ": " << what;
    }
  }
  // Explicit groups do not care about strict mode.
  Grid grid(test::world(), GridOptions{.world = test::world()->size()});
  EXPECT_EQ(grid.groups().tp->size(), 1);
  ps::set_strict_mode(false);
  EXPECT_EQ(ps::get_tensor_model_parallel_world_size(), 1);
}

}  // namespace
}  // namespace gridlock
