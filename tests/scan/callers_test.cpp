// `callers` and laundering on fixtures/callers, compared with the expect-site and
// expect-read annotations beside its code.
#include "scan/annotations.h"

#include "analysis/callers.h"
#include "analysis/summary.h"
#include "pipeline/pipeline.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

const std::string kRoot = GRIDLOCK_SOURCE_DIR "/fixtures/callers";

const pipeline::ScanRun& fixture() {
  static const pipeline::ScanRun run = [] {
    pipeline::ScanRequest o;
    o.buildDir = GRIDLOCK_BINARY_DIR "/fixtures/callers";
    o.rules = {kRoot + "/gridlock.json"};
    o.root = kRoot;
    o.jobs = 2;
    return pipeline::scan(o);
  }();
  return run;
}

TEST(Callers, EverySiteMatchesItsAnnotation) {
  auto r = analysis::callers(fixture().inventory.program, "minitron::Attention::Attention",
                             "pg_collection");
  Expectations actual = expectationsOf(r.sites);
  EXPECT_EQ(diff(parseAnnotations(kRoot, "expect-site"), actual), "");
  EXPECT_EQ(r.paramIndex, 3);
  EXPECT_TRUE(r.publicApi);
  EXPECT_EQ(r.sites.size(), 20u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Explicit), 2u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Default), 8u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Null), 4u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Forwarded), 6u);
}

TEST(Callers, OverridesOfAVirtualTargetAreReached) {
  auto r = analysis::callers(fixture().inventory.program, "minitron::Layer::forward", "pg");
  Expectations actual = expectationsOf(r.sites);
  EXPECT_EQ(diff(parseAnnotations(kRoot, "expect-virtual-site"), actual), "");
  EXPECT_EQ(r.sites.size(), 3u);
  EXPECT_TRUE(r.classes.empty());  // a method, not a constructor
}

TEST(Callers, ClassesComeFromTheClassGraph) {
  auto r = analysis::callers(fixture().inventory.program, "minitron::Attention::Attention",
                             "pg_collection");
  EXPECT_EQ(r.classes,
            (std::vector<std::string>{"minitron::Attention", "minitron::CrossAttention",
                                      "minitron::Delegating", "minitron::FlashSelfAttention",
                                      "minitron::LegacyAttention", "minitron::SelfAttention",
                                      "minitron::WithLogging<minitron::Attention>"}));
}

TEST(Callers, UnknownTargetsAreNamed) {
  const auto& p = fixture().inventory.program;
  try {
    analysis::callers(p, "minitron::Atention::Atention", "pg_collection");
    FAIL();
  } catch (const analysis::CallersError& e) {
    EXPECT_STREQ(
        e.what(),
        "no function or constructor named minitron::Atention::Atention in the scanned code");
  }
  try {
    analysis::callers(p, "minitron::make_attention", "pgc");
    FAIL();
  } catch (const analysis::CallersError& e) {
    EXPECT_STREQ(
        e.what(),
        "minitron::make_attention has no parameter named pgc (its parameters: hidden, pg)");
  }
}

TEST(Callers, HeaderFactsMergeOnce) {
  const auto& p = fixture().inventory.program;
  size_t ctors = 0;
  for (const auto& [usr, f] : p.functions)
    if (f.name == "minitron::Attention::Attention") ++ctors;
  EXPECT_EQ(ctors, 2u);  // two overloads, though four TUs include the header
  size_t baseInits = 0;
  for (const auto& s : p.sites)
    if (s.file == "model/attention.h" && s.line == 37) ++baseInits;
  EXPECT_EQ(baseInits, 1u);
  const auto& f = p.functions.begin()->second;
  (void)f;
  for (const auto& [usr, fn] : p.functions)
    if (fn.name == "minitron::make_attention") {
      ASSERT_EQ(fn.params.size(), 2u);
      EXPECT_TRUE(fn.params[1].hasDefault);
      EXPECT_EQ(fn.params[1].defaultText, "nullptr");
      EXPECT_FALSE(fn.isPublicApi);
    }
}

TEST(Laundering, ReadsMatchAnnotationsAndFallbackKnowsItsBreakingSites) {
  Expectations actual = expectationsOf(fixture().inventory.reads);
  EXPECT_EQ(diff(parseAnnotations(kRoot), actual), "");
  analysis::Summary s = analysis::summarize(fixture().inventory);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Laundered), 16u);
  const unsigned resolveNull = lineOf(kRoot, "model/use_helpers.cpp", "resolve(nullptr);");
  size_t shims = 0, checked = 0;
  for (const auto& r : fixture().inventory.reads) {
    if (r.kind == facts::ReadKind::Shim) {
      ++shims;
      ASSERT_TRUE(r.analysis.fallbackDead.has_value());
      EXPECT_FALSE(*r.analysis.fallbackDead);
      EXPECT_EQ(r.analysis.breakingSites.size(), 12u);  // 11 in scope + tests/attention_test.cpp:5
      EXPECT_EQ(r.analysis.breakingSites.back(), "tests/attention_test.cpp:5:27");
    }
    if (r.kind == facts::ReadKind::Laundered && r.file == "model/use_helpers.cpp" &&
        r.line == resolveNull) {
      ++checked;
      EXPECT_EQ(r.name, "minitron::resolve");
      EXPECT_EQ(r.analysis.launders, "gridlock::parallel_state::get_tensor_model_parallel_group");
      EXPECT_EQ(r.group, "tp");
      EXPECT_EQ(r.enclosing, "minitron::use");
    }
  }
  EXPECT_EQ(shims, 1u);
  EXPECT_EQ(checked, 1u);
}

TEST(CallersCli, JsonContract) {
  CommandResult r =
      runCommand(std::string(GRIDLOCK_BIN) +
                 " callers -p " GRIDLOCK_BINARY_DIR "/fixtures/callers --root " + kRoot +
                 " --function minitron::Attention::Attention --param pg_collection "
                 "--format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["target"], "minitron::Attention::Attention");
  EXPECT_EQ(j["param"], "pg_collection");
  EXPECT_EQ(j["param_index"], 3);
  EXPECT_EQ(j["summary"]["sites"], 20);
  const auto& first = j["sites"][0];
  EXPECT_EQ(first["file"], "model/attention.h");
  EXPECT_EQ(first["line"], 37);
  EXPECT_EQ(first["via"], "base_init");
  EXPECT_EQ(first["supplied"], "forwarded");
  EXPECT_EQ(first["forwarded_from"], "minitron::CrossAttention::CrossAttention(pgc)");

  CommandResult bad = runCommand(std::string(GRIDLOCK_BIN) +
                                 " callers -p " GRIDLOCK_BINARY_DIR "/fixtures/callers --root " +
                                 kRoot + " --function minitron::Attention::Attention --param pg");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("has no parameter named pg"), std::string::npos) << bad.err;
}

// The frontend keeps only the calls that can reach scanned code: a target in an excluded file
// would get a partial answer, so it is refused (with no pack, every file is scanned).
TEST(CallersCli, ATargetNoPackScansIsRefused) {
  const std::string base = std::string(GRIDLOCK_BIN) +
                           " callers -p " GRIDLOCK_BINARY_DIR "/fixtures/callers --root " + kRoot +
                           " --function helpers::tp_or_default --param pg";
  CommandResult r = runCommand(base + " --rules " + kRoot + "/gridlock.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("helpers::tp_or_default is declared in helpers/groups.h, which no rule "
                       "pack scans"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  CommandResult all = runCommand(base + " --format json");
  ASSERT_EQ(all.status, 0) << all.err;
  // use_helpers.cpp: lines 7 (forwarded), 16-18, and through resolve 19-20.
  EXPECT_EQ(nlohmann::json::parse(all.out)["summary"]["sites"], 6) << all.out;
}

}  // namespace
}  // namespace gridlock::test
