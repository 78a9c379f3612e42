// The bundled fixture codebase, scanned in process and compared line by line with the
// expect-read annotations beside its code.
#include "scan/annotations.h"

#include "analysis/summary.h"
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gridlock::test {
namespace {

pipeline::ScanRun scanFixture() {
  pipeline::ScanRequest o;
  o.buildDir = GRIDLOCK_BINARY_DIR "/fixtures/scan";
  o.rules = {GRIDLOCK_SOURCE_DIR "/fixtures/scan/gridlock.json"};
  o.root = GRIDLOCK_SOURCE_DIR "/fixtures/scan";
  o.jobs = 2;
  return pipeline::scan(o);
}

const pipeline::ScanRun& fixture() {
  static const pipeline::ScanRun run = scanFixture();
  return run;
}

TEST(ScanFixture, EveryReadMatchesItsAnnotation) {
  Expectations actual = expectationsOf(fixture().inventory.reads);
  Expectations expected = parseAnnotations(GRIDLOCK_SOURCE_DIR "/fixtures/scan");
  EXPECT_EQ(diff(expected, actual), "");
}

TEST(ScanFixture, SummaryCountsAreExact) {
  analysis::Summary s = analysis::summarize(fixture().inventory);
  EXPECT_EQ(s.filesScanned, 7u);
  EXPECT_EQ(s.parseErrors, 0u);
  EXPECT_EQ(s.total, 28u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Accessor), 24u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Shim), 1u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::GlobalState), 3u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Laundered), 0u);
  EXPECT_EQ(s.writes, 2u);
  EXPECT_EQ(s.edges, 1u);
  EXPECT_EQ(s.suppressed, 1u);
  EXPECT_EQ(s.fallbacks, 5u);
  EXPECT_EQ(s.byGroup.at("world"), 4u);
}

TEST(ScanFixture, EnclosingSymbolsAndSources) {
  // The read on the one line of `file` holding `marker`.
  auto find = [](const std::string& file, const std::string& marker) -> const facts::Read* {
    unsigned line = lineOf(GRIDLOCK_SOURCE_DIR "/fixtures/scan", file, marker);
    for (const auto& r : fixture().inventory.reads)
      if (r.file == file && r.line == line) return &r;
    return nullptr;
  };
  const facts::Read* src =
      find("core/attention.cpp",
           "return gridlock::parallel_state::get_tensor_model_parallel_src_rank();");
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->name, "gridlock::parallel_state::get_tensor_model_parallel_src_rank");
  EXPECT_EQ(src->enclosing, "minitron::SelfAttention::src");
  EXPECT_EQ(src->enclosingClass, "minitron::SelfAttention");
  EXPECT_EQ(src->hint.source, "this->pg_collection_->tp");  // a protected field of the base

  const facts::Read* lambda = find(
      "core/attention.cpp",
      "auto f = [] { return gridlock::parallel_state::get_expert_model_parallel_world_size(); };");
  ASSERT_NE(lambda, nullptr);
  EXPECT_EQ(lambda->enclosing, "minitron::in_lambda");

  const facts::Read* callback = find("core/attention.cpp", "auto* rank_callback = &");
  ASSERT_NE(callback, nullptr);
  EXPECT_EQ(callback->enclosing, "minitron::rank_callback");

  const facts::Read* tmpl =
      find("core/templates.h",
           "return x * gridlock::parallel_state::get_tensor_model_parallel_world_size();");
  ASSERT_NE(tmpl, nullptr);
  EXPECT_EQ(tmpl->enclosing, "minitron::scaled");

  const facts::Read* world = find("core/comm.cpp", "MPI_Barrier(MPI_COMM_WORLD);");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->name, "MPI_COMM_WORLD");
  EXPECT_EQ(world->hint.source, "comm");
}

TEST(ScanFixture, SuppressionWithoutReasonIsReported) {
  const auto& bad = fixture().inventory.badSuppressions;
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].file, "core/state.cpp");
  EXPECT_EQ(bad[0].line,
            lineOf(GRIDLOCK_SOURCE_DIR "/fixtures/scan", "core/state.cpp", "int unexplained()"));
  const facts::Read* allowed = nullptr;
  for (const auto& r : fixture().inventory.reads)
    if (r.suppressed) allowed = &r;
  ASSERT_NE(allowed, nullptr);
  EXPECT_EQ(*allowed->suppressed, "only logs the layout once at start-up");
}

TEST(ScanFixture, NvccEntryIsTranslatedAndSaysSo) {
  const auto& notes = fixture().inventory.notes;
  auto it = notes.find("kernels/scale.cu");
  ASSERT_NE(it, notes.end());
  auto has = [&](const std::string& s) {
    return std::find(it->second.begin(), it->second.end(), s) != it->second.end();
  };
  EXPECT_TRUE(has("nvcc command translated to Clang CUDA (host side)"));
  EXPECT_TRUE(has("expanded --options-file CMakeFiles/includes_CUDA.rsp"));
  EXPECT_TRUE(has("dropped nvcc-only --generate-code arch=compute_90,code=[compute_90,sm_90]"));
  EXPECT_TRUE(has("dropped nvcc-only -forward-unknown-to-host-compiler"));
  EXPECT_EQ(notes.size(), 1u);  // only the .cu entry needed translating
}

}  // namespace
}  // namespace gridlock::test
