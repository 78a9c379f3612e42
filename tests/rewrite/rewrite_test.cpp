// gridlock rewrite on the golden cases (fixtures/rewrite/<case>/: input/ annotated with
// CHECK-FIXES, the rewrite's expected output, and CHECK-LEFT, the reads left with their
// reasons; rewrite/fix_annotations.h), and the rewrite library's refusals on crafted plans.
// Every case runs on a fresh copy.
#include "rewrite/rewrite_case.h"

#include "apply/replacements_yaml.h"
#include "apply/unified_diff.h"
#include "apply/write.h"
#include "pipeline/pipeline.h"
#include "rewrite/core/summary.h"
#include "rewrite/cpp/cpp_state.h"
#include "rewrite/cpp/finish.h"
#include "rewrite/cpp/plan.h"
#include "rewrite/cpp/rewriter.h"
#include "rewrite/fix_annotations.h"
#include "rules/rule_pack.h"
#include "support/atomic_write.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, ApplyMatchesExpectedCompilesAndIsIdempotent) {
  Case c(GetParam());
  CommandResult first = c.run("rewrite", "--apply");
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(c.compareWithExpected(), "");
  EXPECT_EQ(c.compareRemaining(), "");
  // A second run finds nothing to do and writes nothing.
  CommandResult second = c.run("rewrite", "--apply");
  EXPECT_EQ(second.status, 0) << second.err;
  EXPECT_NE(second.err.find("nothing to do"), std::string::npos) << second.err;
  EXPECT_EQ(c.compareWithExpected(), "");
  for (const auto& f : filesUnder(c.src)) EXPECT_EQ(f.find(".gridlock-tmp"), std::string::npos);
}

TEST_P(Golden, ExportedFixesApplyWithClangApplyReplacements) {
  std::string tool = GRIDLOCK_APPLY_REPLACEMENTS;
  if (tool.empty() || tool.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "clang-apply-replacements not installed";
  // clang-apply-replacements cleans up around replacements as C++ (it drops a comma before a
  // closing bracket): a Python case's YAML is for tools that apply it verbatim.
  if (GetParam().rfind("py_", 0) == 0) GTEST_SKIP() << "a Python case";
  Case c(GetParam());
  std::string fixes = c.dir + "/fixes";
  fs::create_directories(fixes);
  CommandResult r = c.run("rewrite", "--export-fixes " + fixes + "/gridlock.yaml");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(c.compareWithInput(), "");  // exporting writes no source file
  std::string yaml = readFile(fixes + "/gridlock.yaml");
  EXPECT_NE(yaml.find("MainSourceFile:"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("FilePath:        '" + c.src + "/"), std::string::npos) << yaml;
  CommandResult applied = runCommand(tool + " " + fixes);
  ASSERT_EQ(applied.status, 0) << applied.out << applied.err;
  EXPECT_EQ(c.compareWithExpected(), "");
}

TEST_P(Golden, DiffAppliesWithPatch) {
  std::string patch = GRIDLOCK_PATCH;
  if (patch.empty() || patch.find("NOTFOUND") != std::string::npos) GTEST_SKIP() << "no patch";
  Case c(GetParam());
  CommandResult r = c.run("rewrite", "--diff");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(c.compareWithInput(), "");  // a diff writes no source file
  writeFile(c.dir + "/change.diff", r.out);
  CommandResult applied =
      runCommand(patch + " -s -p1 -d " + c.src + " -i " + c.dir + "/change.diff");
  ASSERT_EQ(applied.status, 0) << applied.out << applied.err << r.out;
  EXPECT_EQ(c.compareWithExpected(), "");
}

// The folders of fixtures/rewrite a test of their own drives: outside_db's rewrite is refused
// without --extra-db (outside_db_test.cpp), rollback's substitution does not compile
// (RewriteRefusal.SubstitutionThatDoesNotCompileIsRolledBackAlone below), py_rollback's gives
// pyright a new error (py_rollback_test.cpp).
const std::set<std::string> kOwnTests = {"outside_db", "py_rollback", "rollback"};

// Every other folder of fixtures/rewrite is a golden case, in the order of their names.
std::vector<std::string> goldenCases() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kFixtures))
    if (e.is_directory() && !kOwnTests.count(e.path().filename().string()))
      out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(goldenCases()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// A folder found as a case says what it expects: one without any annotation would pass while
// checking nothing. The own-test folders exist, so the list above names no stale case.
TEST(GoldenCases, EveryCaseIsAnnotated) {
  std::vector<std::string> cases = goldenCases();
  EXPECT_FALSE(cases.empty());
  for (const std::string& name : cases) {
    bool annotated = false;
    for (const std::string& file : filesUnder(kFixtures + "/" + name + "/input")) {
      std::string text = inputFile(name, file);
      annotated = annotated || text.find("CHECK-FIXES") != std::string::npos ||
                  text.find("CHECK-LEFT") != std::string::npos;
    }
    EXPECT_TRUE(annotated) << name << ": no CHECK-FIXES or CHECK-LEFT annotation in its input";
  }
  for (const std::string& name : kOwnTests) EXPECT_TRUE(fs::is_directory(kFixtures + "/" + name));
}

TEST(RewriteRefusal, NoModeIsBadInput) {
  Case c("substitute");
  CommandResult r = c.run("rewrite");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("rewrite needs one of --export-fixes FILE, --apply, --diff"),
            std::string::npos)
      << r.err;
}

// `--diff --check` for a CI step: exit 1 while there are edits to make (the diff still
// printed), 0 once the tree is rewritten (and no diff); without --diff it is a usage error.
TEST(RewriteCheck, ExitsOneWhileThereIsADiff) {
  Case c("substitute");
  CommandResult pending = c.run("rewrite", "--diff --check -q");
  EXPECT_EQ(pending.status, 1) << pending.err;
  EXPECT_EQ(pending.out.rfind("--- a/", 0), 0u) << pending.out;
  EXPECT_EQ(c.compareWithInput(), "");  // a diff writes no source file
  CommandResult plain = c.run("rewrite", "--diff -q");
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out, pending.out);
  ASSERT_EQ(c.run("rewrite", "--apply -q").status, 0);
  CommandResult done = c.run("rewrite", "--diff --check -q");
  EXPECT_EQ(done.status, 0) << done.err;
  EXPECT_EQ(done.out, "");
  CommandResult alone = c.run("rewrite", "--check");
  EXPECT_EQ(alone.status, 2);
  EXPECT_EQ(alone.err,
            "gridlock: error: --check requires --diff\nRun with --help for the options.\n");
}

// A pack whose env method does not name the env: refused before anything is scanned or
// written, naming the pack's JSON path.
TEST(RewriteRefusal, BadEnvPackIsBadInput) {
  Case c("env_object");
  std::string pack = readFile(c.rules());
  size_t at = pack.find("\"{env}.tensor_parallel_size()\"");
  ASSERT_NE(at, std::string::npos);
  pack.replace(at, 30, "\"tensor_parallel_size()\"");
  writeFile(c.dir + "/bad.json", pack);
  CommandResult r = runCommand(kBin + " rewrite -p " + c.build + " --rules " + c.dir +
                               "/bad.json --root " + c.src + " --apply");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(c.dir + "/bad.json: /rewrite/env/methods/tp/size: the template must name "
                               "the env as {env}"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(c.compareWithInput(), "");
}

// The env's values: one verdict per read, and the read with no method says which key to add.
TEST(RewriteEnv, ValuesUseTheAccessorsOwnMethods) {
  Case c("env_values");
  pipeline::ScanRun run = scanCase(c, /*rewriteFacts=*/true);
  rewrite::Plan plan = rewrite::cpp::plan(run.inventory, run.rules);
  std::map<std::string, std::pair<std::string, std::string>> byRead;
  for (size_t i = 0; i < run.inventory.reads.size(); ++i) {
    const facts::Read& r = run.inventory.reads[i];
    byRead[r.file + ":" + std::to_string(r.line) + " " + r.name] = {
        std::string(facts::spell(plan.verdicts[i])), plan.verdicts[i].detail};
  }
  // Block::width (member), peer (threaded), scatter_width (pointer), stages (left), and main's
  // two singletons (an edge).
  ASSERT_EQ(byRead.size(), 7u);
  EXPECT_EQ(byRead["layers.cpp:7 GetSequenceParallelEnabled"].first, "substitute");
  EXPECT_EQ(byRead["layers.cpp:7 GetTensorParallelSize"].first, "substitute");
  EXPECT_EQ(byRead["layers.cpp:15 GetRankOf"].first, "thread");
  EXPECT_EQ(byRead["layers.cpp:21 GetSequenceParallelEnabled"].first, "substitute");
  EXPECT_EQ(byRead["layers.cpp:27 GetPipelineStages"],
            std::make_pair(std::string("no_spelling"),
                           std::string("GetPipelineStages yields a value no group method gives: "
                                       "name its method of the env (GlobalEnv) in the "
                                       "accessor's rule (accessors[].env)")));
  EXPECT_EQ(byRead["main.cpp:7 GlobalEnv::Instance"].first, "none");
  EXPECT_EQ(byRead["main.cpp:8 GlobalEnv::Instance"].first, "none");
}

// A function that changes the env (a non-const method called on what Instance() returns)
// keeps its read: the frontend marks that read alone as mutated, and Thread says why.
TEST(RewriteEnv, AFunctionThatChangesTheEnvKeepsItsRead) {
  Case c("accessor_body");
  pipeline::ScanRun run = scanCase(c, /*rewriteFacts=*/true);
  rewrite::Plan plan = rewrite::cpp::plan(run.inventory, run.rules);
  std::vector<std::string> mutated;
  std::string verdict;
  for (size_t i = 0; i < run.inventory.reads.size(); ++i) {
    const facts::Read& r = run.inventory.reads[i];
    if (r.mutated) mutated.push_back(r.file + ":" + std::to_string(r.line));
    if (r.file == "env.h" && r.line == 20)
      verdict = std::string(facts::spell(plan.verdicts[i])) + ": " + plan.verdicts[i].detail;
  }
  EXPECT_EQ(mutated, std::vector<std::string>{"env.h:20"});
  EXPECT_EQ(verdict,
            "no_source: cannot thread env: InitEnv changes what GlobalEnv::Instance returns "
            "(env.h:20:42): a const GlobalEnv & parameter cannot replace it");
}

// The `conditional` case's preprocessor branches as the frontend records them (each from its
// directive's line to the next directive's), and why init_rank keeps its read.
TEST(RewriteConditional, BranchesAndTheReadCompiledOnlyUnderOne) {
  Case c("conditional");
  pipeline::ScanRun run = scanCase(c, /*rewriteFacts=*/true);
  const std::string source = readFile(c.src + "/ranks.cpp");
  std::vector<std::string> branches;
  for (const auto& b : run.inventory.rewrite.conditionals["ranks.cpp"]) {
    // From the directive's line to the next directive: its last line is the one before.
    std::string last = source.substr(b.end, source.find('\n', b.end) - b.end);
    branches.push_back(std::to_string(b.line) + " " + b.condition + " -> " + last);
  }
  std::sort(branches.begin(), branches.end());
  EXPECT_EQ(branches, (std::vector<std::string>{
                          "12 #ifdef HALO_MPI -> #else",
                          "16 #else of #ifdef HALO_MPI -> #endif",
                          "27 #ifdef HALO_MPI -> #endif",
                          "34 #ifdef HALO_MPI -> #endif",
                          "5 #ifdef HALO_DEBUG -> #endif",
                      }));
  // comm.h has no conditional, ring.h's include guard is not one, <mpi.h> is outside the root.
  EXPECT_EQ(run.inventory.rewrite.conditionals.size(), 1u);
  rewrite::Plan plan = rewrite::cpp::plan(run.inventory, run.rules);
  std::string verdict;
  for (size_t i = 0; i < run.inventory.reads.size(); ++i)
    if (run.inventory.reads[i].file == "ranks.cpp" && run.inventory.reads[i].line == 14)
      verdict = std::string(facts::spell(plan.verdicts[i])) + ": " + plan.verdicts[i].detail;
  EXPECT_EQ(verdict,
            "open_call_graph: cannot thread comm: every read of init_rank is compiled only under "
            "`#ifdef HALO_MPI` (ranks.cpp:12), and its declaration in ranks.cpp is not: a build "
            "without it would declare the parameter and compile none of its uses");
}

// Store's facts, as the frontend records them for the `store` case: where each class's member
// goes and with what access, which constructors it has, where an initializer goes.
TEST(RewriteStore, FactsPlaceTheMemberAndTheInitializers) {
  Case c("store");
  pipeline::ScanRun run = scanCase(c, /*rewriteFacts=*/true);
  std::map<std::string, const facts::ClassBodyFact*> byName;
  for (const auto& [usr, k] : run.inventory.rewrite.classBodies)
    byName[run.inventory.program.classes.at(usr).name] = &k;
  const std::string header = readFile(c.src + "/layers.h");
  const std::string source = readFile(c.src + "/layers.cpp");
  // The text from a fact's offset to the end of its line.
  auto at = [](const std::string& text, unsigned offset) {
    return text.substr(offset, text.find('\n', offset) - offset);
  };
  ASSERT_TRUE(byName.count("Linear") && byName.count("Scale") && byName.count("Norm"));
  const facts::ClassBodyFact& linear = *byName["Linear"];
  EXPECT_EQ(at(header, linear.memberAt), "};");
  EXPECT_TRUE(linear.memberOwnLine);
  EXPECT_EQ(linear.memberIndent, "  ");
  EXPECT_EQ(linear.accessIndent, " ");
  EXPECT_EQ(linear.endAccess, facts::Access::Private);
  EXPECT_FALSE(linear.isTemplate || linear.userCopy);
  ASSERT_EQ(linear.constructors.size(), 1u);
  EXPECT_NE(std::find(linear.memberNames.begin(), linear.memberNames.end(), "bias_"),
            linear.memberNames.end());
  EXPECT_EQ(byName["Scale"]->endAccess, facts::Access::None);  // a struct with no access specifier
  EXPECT_EQ(byName["Scale"]->accessIndent, "");                // its head's line starts the line
  ASSERT_EQ(byName["Norm"]->constructors.size(), 1u);
  // Linear's constructor is defined in layers.cpp, after its written initializers.
  const auto& lists = run.inventory.rewrite.lists.at(linear.constructors[0]);
  const facts::ParamListFact* def = nullptr;
  for (const auto& l : lists)
    if (l.definition) def = &l;
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->file, "layers.cpp");
  EXPECT_TRUE(def->initAfter);
  EXPECT_FALSE(def->delegating);
  // Written `bias_(bias), in_(in)` though in_ is declared first: after the one written last.
  EXPECT_EQ(source.substr(def->initAt - 20, 20), "bias_(bias), in_(in)");
  // GatherFunction() {}: no initializer, so one goes after the declarator, before ` {}`.
  const facts::ClassBodyFact* gather = nullptr;
  for (const auto& [name, k] : byName)
    if (name.ends_with("GatherFunction")) gather = k;
  ASSERT_NE(gather, nullptr);
  const auto& gl = run.inventory.rewrite.lists.at(gather->constructors.at(0)).at(0);
  EXPECT_FALSE(gl.initAfter);
  EXPECT_EQ(at(source, gl.initAt), " {}");
  EXPECT_EQ(gather->endAccess, facts::Access::Public);
}

// Each read's verdict in the `store` case, and why Norm's stays.
TEST(RewriteStore, VerdictsSayWhatKeepsTheValue) {
  Case c("store");
  pipeline::ScanRun run = scanCase(c, /*rewriteFacts=*/true);
  rewrite::Plan plan = rewrite::cpp::plan(run.inventory, run.rules);
  std::map<std::string, std::pair<std::string, std::string>> byRead;
  for (size_t i = 0; i < run.inventory.reads.size(); ++i) {
    const facts::Read& r = run.inventory.reads[i];
    byRead[r.file + ":" + std::to_string(r.line)] = {std::string(facts::spell(plan.verdicts[i])),
                                                     plan.verdicts[i].detail};
  }
  ASSERT_EQ(byRead.size(), 8u);
  EXPECT_EQ(byRead["layers.cpp:13"],
            std::make_pair(std::string("store"),
                           std::string("replaced with env_.tensor_parallel_size(), env kept in "
                                       "Linear at construction, threaded through 3 function(s)")));
  // A non-virtual method of Linear, which keeps the env: it reads the member too.
  EXPECT_EQ(byRead["layers.cpp:17"],
            std::make_pair(std::string("store"),
                           std::string("replaced with env_.tensor_parallel_rank(), env kept in "
                                       "Linear at construction, threaded through 3 function(s)")));
  // Static: threaded, with Forward passing env_ (the function and its own header declaration).
  EXPECT_EQ(byRead["layers.cpp:21"].first, "thread");
  EXPECT_EQ(byRead["layers.cpp:24"].first, "store");
  // Called in LoraLinear's initializer list: threaded, as the constructor has the parameter.
  EXPECT_EQ(byRead["layers.cpp:27"].first, "thread");
  EXPECT_EQ(byRead["layers.cpp:30"].first, "store");
  EXPECT_EQ(byRead["layers.cpp:33"],
            std::make_pair(std::string("open_call_graph"),
                           std::string("cannot thread env: Norm::Norm is a default constructor: "
                                       "constructions without an argument list are not all "
                                       "visible")));
  EXPECT_EQ(byRead["layers.cpp:39"].first, "thread");
  // Threaded: Parts, Clamp and Gather; through them, the 5 constructors and GatherFunc. Stored
  // in Linear (LoraLinear uses its member), Scale and GatherFunction.
  rewrite::Rewriters backends;
  backends.push_back(std::make_unique<rewrite::cpp::CppRewriter>());
  EXPECT_EQ(rewrite::summaryLine(plan, run.inventory, backends),
            "0 substituted, 0 required, 3 threaded (through 9 function(s)), 4 stored (in 3 "
            "class(es)), 1 left (open_call_graph 1)");
}

TEST(RewriteRefusal, SubstitutionThatDoesNotCompileIsRolledBackAlone) {
  Case c("rollback");
  CommandResult fixes = c.run("rewrite", "--export-fixes " + c.dir + "/fixes.yaml");
  EXPECT_EQ(fixes.status, 0) << fixes.err;
  std::string yaml = readFile(c.dir + "/fixes.yaml");
  EXPECT_NE(yaml.find("good.cpp"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("bad.cpp"), std::string::npos) << yaml;
  CommandResult r = c.run("rewrite", "--apply");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gridlock: note: the rewritten bad.cpp does not compile:"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no viable conversion"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gridlock: rewrite: edits in bad.cpp rolled back: bad.cpp:7:10: error: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("1 left (compile_error 1)"), std::string::npos) << r.err;
  // bad.cpp as it was; good.cpp rewritten (its edit compiles on its own).
  EXPECT_EQ(readFile(c.src + "/bad.cpp"), readFile(kFixtures + "/rollback/input/bad.cpp"));
  EXPECT_NE(readFile(c.src + "/good.cpp").find("return tp_group->size();"), std::string::npos);
  CommandResult again = c.run("rewrite", "--apply");
  EXPECT_EQ(again.status, 0) << again.err;
}

TEST(RewriteRefusal, FileChangedSinceTheScanIsRefused) {
  Case c("substitute");
  pipeline::ScanRun run = scanCase(c);
  std::unique_ptr<rewrite::cpp::CppState> planned =
      rewrite::cpp::planState(run.inventory, run.rules);
  ASSERT_FALSE(planned->plan.edits.empty());
  // Someone edits a file between the scan and the rewrite.
  std::string path = c.src + "/model/layer.cpp";
  writeFile(path, readFile(path) + "// edited meanwhile\n");
  apply::Prepared p = rewrite::cpp::prepare(*planned, run.root);
  EXPECT_FALSE(p.ok());
  ASSERT_EQ(p.changedFiles.size(), 1u);
  EXPECT_EQ(p.changedFiles[0], "model/layer.cpp: changed since it was scanned");
  // The other file is still prepared, but a refused plan is never written by the command.
  for (const auto& ch : p.changes) EXPECT_NE(ch.file, "model/layer.cpp");
}

TEST(RewriteRefusal, OverlappingEditsAreConflictsIdenticalOnesCountOnce) {
  Case c("substitute");
  pipeline::ScanRun run = scanCase(c);
  std::unique_ptr<rewrite::cpp::CppState> planned =
      rewrite::cpp::planState(run.inventory, run.rules);
  std::optional<rewrite::Edit> header;
  for (const auto& e : planned->plan.edits)
    if (e.file == "model/layer.h") header = e;
  ASSERT_TRUE(header);

  // The same edit twice (a header seen by two translation units): one replacement.
  std::unique_ptr<rewrite::cpp::CppState> twice = rewrite::cpp::planState(run.inventory, run.rules);
  twice->plan.edits.push_back(*header);
  apply::Prepared ok = rewrite::cpp::prepare(*twice, run.root);
  ASSERT_TRUE(ok.ok());
  std::string yaml = apply::exportYaml(ok, "");
  std::string once = apply::exportYaml(rewrite::cpp::prepare(*planned, run.root), "");
  EXPECT_EQ(yaml, once);

  // A different edit over the same bytes: a conflict naming both, and nothing to write.
  std::unique_ptr<rewrite::cpp::CppState> clash = rewrite::cpp::planState(run.inventory, run.rules);
  rewrite::Edit other = *header;
  other.offset += 1;
  other.text = "0";
  other.why = "crafted";
  clash->plan.edits.push_back(other);
  apply::Prepared bad = rewrite::cpp::prepare(*clash, run.root);
  EXPECT_FALSE(bad.ok());
  ASSERT_EQ(bad.conflicts.size(), 1u);
  EXPECT_NE(bad.conflicts[0].find("model/layer.h: crafted"), std::string::npos) << bad.conflicts[0];
  EXPECT_NE(bad.conflicts[0].find("overlaps model/layer.h:"), std::string::npos)
      << bad.conflicts[0];
  for (const auto& ch : bad.changes) EXPECT_NE(ch.file, "model/layer.h");
  EXPECT_EQ(c.compareWithInput(), "");
}

TEST(RewriteRefusal, WriteAllRestoresEveryFileWhenOneCannotBeReplaced) {
  std::string dir = makeTempDir("rewrite-atomic");
  writeFile(dir + "/a.cpp", "int a;\n");
  writeFile(dir + "/b.cpp", "int b;\n");
  apply::Prepared p;
  p.changes.push_back({"a.cpp", dir + "/a.cpp", "int a;\n", "int a2;\n", {}});
  p.changes.push_back({"b.cpp", dir + "/b.cpp", "int b;\n", "int b2;\n", {}});
  apply::WriteOptions o;
  // Once a.cpp is replaced, b.cpp's temporary vanishes: its rename fails.
  o.onStep = [&](apply::ApplyStep s, size_t n) {
    if (s == apply::ApplyStep::Renamed && n == 0) fs::remove(support::tempPathFor(dir + "/b.cpp"));
  };
  try {
    apply::writeAll(p, dir, o);
    ADD_FAILURE() << "no refusal";
  } catch (const apply::WriteRefused& e) {
    ASSERT_EQ(e.problems.size(), 1u);
    EXPECT_EQ(e.problems[0],
              "b.cpp: cannot replace: No such file or directory; every file replaced was put "
              "back as it was");
  }
  EXPECT_EQ(readFile(dir + "/a.cpp"), "int a;\n");
  EXPECT_EQ(readFile(dir + "/b.cpp"), "int b;\n");
  // No temporaries, no journal left.
  EXPECT_EQ(filesUnder(dir, true), (std::vector<std::string>{"a.cpp", "b.cpp"}));
  fs::remove_all(dir);
}

TEST(RewriteRules, RewriteKeysAreValidated) {
  auto error = [](const std::string& text) {
    try {
      rules::parseRulePack(text, "p.json");
    } catch (const rules::RuleError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string acc =
      R"("accessors": [{"function": "f", "kind": "accessor", "group": "tp", "yields": "size"}])";
  EXPECT_EQ(error(R"({"name": "x", )" + acc + R"(, "rewrite": {"spel": {}}})"),
            "p.json: /rewrite/spel: unknown key (allowed: spell, include, require, thread, "
            "collapse, env, python); did you mean \"spell\"?");
  EXPECT_EQ(
      error(R"({"name": "x", )" + acc + R"js(, "rewrite": {"collapse": {"lookup": "f()"}}})js"),
      "p.json: /rewrite/collapse: missing required key \"name\"");
  EXPECT_EQ(error(R"({"name": "x", )" + acc +
                  R"js(, "rewrite": {"collapse": {"lookup": "f()", "name": "a b"}}})js"),
            "p.json: /rewrite/collapse/name: expected an identifier, got \"a b\"");
  EXPECT_EQ(error(R"({"name": "x", )" + acc +
                  R"(, "rewrite": {"thread": {"type": "MPI_Comm", "name": "c", "edge": "W"}}})"),
            "p.json: /rewrite/thread: a thread parameter that yields a group needs \"group\" "
            "(the group it holds)");
  EXPECT_EQ(error(R"({"name": "x", )" + acc +
                  R"(, "rewrite": {"thread": {"type": "T", "name": "c", "group": "tp"}}})"),
            "p.json: /rewrite/thread: missing required key \"edge\"");
  EXPECT_EQ(error(R"({"name": "x", )" + acc +
                  R"(, "rewrite": {"thread": {"type": "T", "name": "c", "group": "tp", )"
                  R"("edge": "W", "position": "first"}}})"),
            "p.json: /rewrite/thread/position: expected one of \"before_defaults\", \"last\"; "
            "got \"first\"");
  EXPECT_EQ(error(R"({"name": "x", )" + acc + R"js(, "rewrite": {"spell": {"size": "size()"}}})js"),
            "p.json: /rewrite/spell/size: the template must name the group as {g}");
  EXPECT_EQ(error(R"({"name": "x", )" + acc + R"(, "rewrite": {"spell": {"world": "{g}"}}})"),
            "p.json: /rewrite/spell/world: unknown key (allowed: group, size, rank, src_rank)");
  EXPECT_EQ(error(R"({"name": "x", )" + acc + R"js(, "rewrite": {"require": {"spell": "f()"}}})js"),
            "p.json: /rewrite/require/spell: the template must carry the message as {message}");
  EXPECT_EQ(error(R"({"name": "x", "accessors": [{"function": "f", "kind": "accessor", )"
                  R"js("group": "tp", "yields": "rank", "spell": "rank() == 0"}]})js"),
            "p.json: /accessors/0/spell: the template must name the group as {g}");
  rules::RulePack legacy = rules::loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/gridlock-legacy.json");
  EXPECT_EQ(legacy.rewrite.spell.at(facts::Yields::SrcRank), "{g}->global_rank(0)");
  EXPECT_EQ(legacy.rewrite.requireInclude, "gridlock/require.h");
  rules::RulePack fixture = rules::loadRulePack(kFixtures + "/require/gridlock.json");
  EXPECT_EQ(fixture.rewrite.spell.at(facts::Yields::Size),
            "{g}->size()");  // inherited through extends
  rules::RulePack mpi = rules::loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/mpi.json");
  EXPECT_EQ(mpi.rewrite.thread.type, "MPI_Comm");
  EXPECT_EQ(mpi.rewrite.thread.edge, "MPI_COMM_WORLD");
  EXPECT_EQ(fixture.rewrite.collapse.name, "pgs");  // inherited through extends
  EXPECT_EQ(mpi.rewrite.collapse.lookup, "");       // MPI has no collection to collapse into
}

TEST(RewriteSpell, ArrowBecomesDotForReferences) {
  EXPECT_EQ(rewrite::cpp::spell("{g}->size()", "pgc->tp", true), "pgc->tp->size()");
  EXPECT_EQ(rewrite::cpp::spell("({g}->rank() == {g}->size() - 1)", "g", false),
            "(g.rank() == g.size() - 1)");
  EXPECT_EQ(rewrite::cpp::spell("{g}", "comm", false), "comm");
}

}  // namespace
}  // namespace gridlock::test
