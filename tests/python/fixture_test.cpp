// fixtures/python through the Python frontend's library, the index and laundering, compared
// line by line with the expect-read and expect-site annotations beside its code.
#include "scan/annotations.h"

#include "analysis/callers.h"
#include "analysis/summary.h"
#include "python/scan_fixture.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

const std::string kRoot = GRIDLOCK_SOURCE_DIR "/fixtures/python";

const PythonRun& fixture() {
  static const PythonRun run = scanPythonFixture(kRoot, kRoot + "/gridlock.json");
  return run;
}

const facts::Read* readAt(const std::string& file, const std::string& marker) {
  unsigned line = lineOf(kRoot, file, marker);
  for (const auto& r : fixture().inventory.reads)
    if (r.file == file && r.line == line) return &r;
  return nullptr;
}

TEST(PythonFixture, EveryReadMatchesItsAnnotation) {
  Expectations actual = expectationsOf(fixture().inventory.reads);
  EXPECT_EQ(diff(parseAnnotations(kRoot), actual), "");
}

TEST(PythonFixture, SummaryCountsAreExact) {
  analysis::Summary s = analysis::summarize(fixture().inventory);
  EXPECT_EQ(s.filesScanned, 14u);
  EXPECT_EQ(s.parseErrors, 1u);
  EXPECT_EQ(s.total, 85u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Accessor), 54u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Shim), 1u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::GlobalState), 7u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Laundered), 23u);
  EXPECT_EQ(s.writes, 3u);
  EXPECT_EQ(s.edges, 2u);
  EXPECT_EQ(s.fallbacks, 27u);
}

TEST(PythonFixture, ReadsCarryDottedNamesAndPlaces) {
  const facts::Read* r =
      readAt("mcore/layers/attention.py", "return mpu.get_tensor_model_parallel");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "mcore.parallel_state.get_tensor_model_parallel_src_rank");
  EXPECT_EQ(r->yields, facts::Yields::SrcRank);
  EXPECT_EQ(r->column, 16u);       // `get_...` after `    return mpu.`
  EXPECT_EQ(r->rangeColumn, 12u);  // the whole call, from `mpu`
  EXPECT_TRUE(r->called);
  EXPECT_EQ(r->language, facts::Language::Python);
  EXPECT_EQ(r->enclosing, "mcore.layers.attention.through_the_reexport");
  EXPECT_EQ(r->enclosingUsr, "py:mcore.layers.attention.through_the_reexport");
  EXPECT_EQ(r->enclosingClass, "");

  const facts::Read* callback = readAt("mcore/layers/attention.py", "register(parallel_state.");
  ASSERT_NE(callback, nullptr);
  EXPECT_FALSE(callback->called);

  const facts::Read* fallback = readAt(
      "mcore/layers/linear.py", "tp_group = parallel_state.get_tensor_model_parallel_group()");
  ASSERT_NE(fallback, nullptr);
  EXPECT_EQ(fallback->enclosing, "mcore.layers.linear.Linear.__init__");
  EXPECT_EQ(fallback->enclosingClass, "mcore.layers.linear.Linear");
  EXPECT_EQ(fallback->holder, "tp_group");
  EXPECT_EQ(fallback->guardFunction, "py:mcore.layers.linear.Linear.__init__");
  EXPECT_EQ(fallback->guardParam, 2);  // self, size, tp_group
  EXPECT_EQ(fallback->analysis.fallbackDead, false);
  EXPECT_EQ(fallback->analysis.breakingSites.size(), 7u);  // g = linear_cls(4) once

  const facts::Read* laundered =
      readAt("mcore/layers/attention.py", "a = get_tensor_model_parallel_group_if_none()");
  ASSERT_NE(laundered, nullptr);
  EXPECT_EQ(laundered->name, "mcore.parallel_state.get_tensor_model_parallel_group_if_none");
  EXPECT_EQ(laundered->analysis.launders, "mcore.parallel_state.get_tensor_model_parallel_group");
  EXPECT_EQ(laundered->enclosing, "mcore.layers.attention.laundering");
}

TEST(PythonFixture, AllowsWithoutAReasonOrNamingNothingKnownAreReported) {
  std::vector<std::string> bad;
  for (const auto& b : fixture().inventory.badSuppressions)
    bad.push_back(b.file + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) + ": " +
                  b.problem);
  unsigned d = lineOf(kRoot, "mcore/layers/allowed.py", "d = ps.get_data_parallel_group()");
  unsigned e = lineOf(kRoot, "mcore/layers/allowed.py", "e = ps.get_data_parallel_group()");
  EXPECT_EQ(bad,
            (std::vector<std::string>{
                // Both comments start at column 39, after `    d = ps.get_data_parallel_group()  `.
                "mcore/layers/allowed.py:" + std::to_string(d) +
                    ":39: suppression without a reason is ignored: write # gridlock: "
                    "allow(why this read is deliberate)",
                "mcore/layers/allowed.py:" + std::to_string(e) +
                    ":39: allow names 'pt', which is no group, accessor or global of the rule "
                    "packs: it covers no read of that name"}));
  EXPECT_EQ(readAt("mcore/layers/allowed.py", "a = ps.get_tensor")->suppressed,
            std::optional<std::string>("logs the layout once"));
}

TEST(PythonFixture, AFileThatDoesNotParseIsAParseError) {
  const auto& errors = fixture().inventory.parseErrors;
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].file, "broken/bad.py");
  ASSERT_FALSE(errors[0].messages.empty());
  unsigned line = lineOf(kRoot, "broken/bad.py", "def broken(:");
  EXPECT_EQ(errors[0].messages[0].rfind("broken/bad.py:" + std::to_string(line) + ":", 0), 0u)
      << errors[0].messages[0];
}

TEST(PythonCallers, EverySiteMatchesItsAnnotation) {
  auto r = analysis::callers(fixture().inventory.program, "mcore.layers.linear.Linear.__init__",
                             "tp_group");
  Expectations actual = expectationsOf(r.sites);
  EXPECT_EQ(diff(parseAnnotations(kRoot, "expect-site"), actual), "");
  EXPECT_EQ(r.paramIndex, 2);
  // From the class graph across modules; heads.Linear has the name but is none of them.
  EXPECT_EQ(r.classes, (std::vector<std::string>{
                           "mcore.layers.heads.Head", "mcore.layers.heads.TiedHead",
                           "mcore.layers.linear.ColumnLinear", "mcore.layers.linear.KeyedLinear",
                           "mcore.layers.linear.Linear"}));
  EXPECT_EQ(r.sites.size(), 22u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Explicit), 7u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Default), 6u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Null), 2u);
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Forwarded), 7u);
  EXPECT_EQ(r.byPassed, (std::map<facts::Passed, size_t>{{facts::Passed::Positional, 3},
                                                         {facts::Passed::Keyword, 5},
                                                         {facts::Passed::Omitted, 6},
                                                         {facts::Passed::StarKwargs, 3},
                                                         {facts::Passed::Twice, 1},
                                                         {facts::Passed::StarKwargsKey, 4}}));
}

const std::string kValues = GRIDLOCK_SOURCE_DIR "/fixtures/pycallers";

const PythonRun& values() {
  static const PythonRun run = scanPythonFixture(kValues, kValues + "/gridlock.json");
  return run;
}

// A class handed on as a value (fixtures/pycallers): followed where the flow is local and
// visible (a name bound to a call's result, the names a returned tuple is unpacked into, a
// display subscripted and called, another module's display or bound result, a call's result
// called at once), each such call a site; elsewhere (passed, stored, a display or a result
// handed on, the function that returns it handed on) each place is named, and the list may be
// incomplete. Uses that build nothing (a base, isinstance, a comparison) are neither.
TEST(PythonValues, FollowedFlowsAreSitesTheOthersAreNamed) {
  const auto& program = values().inventory.program;
  auto col = analysis::callers(program, "pkg.layers.Col", "tp_group");
  EXPECT_EQ(diff(parseAnnotations(kValues, "expect-site"), expectationsOf(col.sites)), "");
  EXPECT_EQ(diff(parseAnnotations(kValues, "expect-escape"), expectationsOf(col.escapes)), "");
  EXPECT_EQ(col.sites.size(), 6u);
  EXPECT_EQ(col.escapes.size(), 6u);
  EXPECT_FALSE(col.complete());
  EXPECT_EQ(col.classes, (std::vector<std::string>{"pkg.benign.Wide", "pkg.layers.Col"}));
  auto row = analysis::callers(program, "pkg.layers.Row", "tp_group");
  EXPECT_EQ(diff(parseAnnotations(kValues, "expect-row-site"), expectationsOf(row.sites)), "");
  EXPECT_EQ(diff(parseAnnotations(kValues, "expect-row-escape"), expectationsOf(row.escapes)), "");
  EXPECT_EQ(row.sites.size(), 5u);
  EXPECT_EQ(row.escapes.size(), 6u);
}

// A class handed on in the ways a class builds itself or is built: `cls(...)` in a classmethod,
// `type(self)(...)` and `self.__class__(...)` (a site of each __init__ the class or a class
// below it runs), a method called through a class that inherits it (`Sparse.make(4)`), a class
// used as a decorator (a construction with the def); a class given to a decorator escapes
// (dataclass and the like keep nothing).
TEST(PythonValues, ClassesBuiltByThemselvesOrDecoratorsAreSitesOrEscapes) {
  const auto& program = values().inventory.program;
  auto dense = analysis::callers(program, "pkg.built.Dense", "tp_group");
  EXPECT_EQ(diff(parseAnnotations(kValues, "expect-dense-site"), expectationsOf(dense.sites)), "");
  EXPECT_EQ(diff(parseAnnotations(kValues, "expect-dense-escape"), expectationsOf(dense.escapes)),
            "");
  EXPECT_EQ(dense.sites.size(), 11u);
  EXPECT_EQ(dense.escapes.size(), 1u);
  EXPECT_FALSE(dense.complete());
}

// A fallback every site passes the argument to is not dead while its class is handed on as a
// value: the calls from where it goes are not seen (scan's fallback_dead, and its escapes).
TEST(PythonValues, AFallbackOfAClassHandedOnIsNotDead) {
  unsigned line = lineOf(kValues, "pkg/built.py", "every call passes the group, but Passed");
  const facts::Read* fallback = nullptr;
  for (const auto& r : values().inventory.reads)
    if (r.file == "pkg/built.py" && r.line == line) fallback = &r;
  ASSERT_NE(fallback, nullptr);
  ASSERT_TRUE(fallback->analysis.fallbackDead.has_value());
  EXPECT_FALSE(*fallback->analysis.fallbackDead);
  EXPECT_EQ(fallback->analysis.breakingSites, std::vector<std::string>{});
}

TEST(PythonCallers, AClassNamesItsConstructor) {
  const auto& program = fixture().inventory.program;
  auto byClass = analysis::callers(program, "mcore.layers.linear.Linear", "tp_group");
  auto byInit = analysis::callers(program, "mcore.layers.linear.Linear.__init__", "tp_group");
  EXPECT_EQ(byClass.target, "mcore.layers.linear.Linear");
  EXPECT_EQ(byClass.classes, byInit.classes);
  ASSERT_EQ(byClass.sites.size(), byInit.sites.size());
  for (size_t i = 0; i < byInit.sites.size(); ++i)
    EXPECT_EQ(canonical(byClass.sites[i]), canonical(byInit.sites[i]));
  EXPECT_THROW(analysis::callers(program, "mcore.layers.heads.Head", "tp_group"),
               analysis::CallersError);  // no __init__ of its own: name the one it inherits
}

}  // namespace
}  // namespace gridlock::test
