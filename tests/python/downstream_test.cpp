// A project downstream of the library a shipped pack describes (fixtures/downstream: NeMo-style,
// megatron.core installed, not in the tree) extends the pack: its reads of the library are
// counted and gated, with no warning that the library's rules matched no definition, while a
// rule of a library the tree does hold, or imports nowhere, still warns. A pack's scope glob that
// matches files the scan does not read (a directory of docs alone) is no mistake either.
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
const std::string kFixture = std::string(GRIDLOCK_SOURCE_DIR) + "/fixtures/downstream";

CommandResult runIn(const std::string& dir, const std::string& args) {
  return runCommand("cd " + dir + " && " + kBin + " " + args);
}

// The fixture's annotations: four counted reads in nemo/collections/llm/layers.py, one edge read
// in examples/pretrain.py, each where the accessor's name starts.
TEST(Downstream, ReadsOfTheInstalledLibraryAreCountedWithoutWarnings) {
  CommandResult r = runIn(kFixture, "scan --no-cache --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["total"], 4);
  EXPECT_EQ(j["summary"]["edges"], 1);
  std::vector<std::string> got;
  for (const auto& read : j["reads"])
    got.push_back(read["file"].get<std::string>() + ":" + std::to_string(read["line"].get<int>()) +
                  ":" + std::to_string(read["column"].get<int>()) + " " +
                  read["name"].get<std::string>() + " " + read["kind"].get<std::string>() + " " +
                  read["group"].get<std::string>() + (read["edge"] == true ? " edge" : ""));
  EXPECT_EQ(got,
            (std::vector<std::string>{
                "examples/pretrain.py:6:27 "
                "megatron.core.parallel_state.get_pipeline_model_parallel_rank accessor pp edge",
                "nemo/collections/llm/layers.py:9:27 "
                "megatron.core.parallel_state.get_tensor_model_parallel_group accessor tp",
                "nemo/collections/llm/layers.py:13:12 "
                "megatron.core.parallel_state.get_data_parallel_world_size accessor dp",
                "nemo/collections/llm/layers.py:17:15 "
                "megatron.core.parallel_state.is_pipeline_first_stage accessor pp",
                "nemo/collections/llm/layers.py:21:35 "
                "megatron.core.process_groups_config.ProcessGroupCollection."
                "use_mpu_process_groups shim "}));
}

// Its committed baseline (written by hand from the annotations) holds: the gate passes.
TEST(Downstream, GatePassesOnTheCommittedBaseline) {
  CommandResult r = runIn(kFixture, "gate --no-cache");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gate: passed: 4 global reads, as in the baseline\n");
  EXPECT_EQ(r.err, "");
}

// Which rules a tree is expected to define: megatron.core is in the tree (its stale rule warns);
// lib.dist is imported and not in the tree (an installed library: no warning); nolib.x is in
// neither (a rule naming nothing this code uses: it warns).
TEST(Downstream, RulesOfALibraryInTheTreeOrImportedNowhereStillWarn) {
  std::string dir = makeTempDir("downstream-stale");
  writeFile(dir + "/megatron/__init__.py", "");
  writeFile(dir + "/megatron/core/__init__.py", "");
  writeFile(dir + "/megatron/core/ps.py", "def get_tp():\n    return None\n");
  writeFile(dir + "/app/__init__.py", "");
  writeFile(dir + "/app/use.py",
            "from megatron.core import ps\nfrom lib.dist import get_world\n\n\n"
            "def f():\n    return ps.get_tp(), get_world()\n");
  writeFile(dir + "/p.json", R"({"name": "p", "scope": {"include": ["app/**", "megatron/**"]},
  "accessors": [
    {"python": "megatron.core.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
    {"python": "megatron.core.ps.get_gone", "kind": "accessor", "group": "tp", "yields": "group"},
    {"python": "lib.dist.get_world", "kind": "accessor", "group": "world", "yields": "group"},
    {"python": "nolib.x.get_y", "kind": "accessor", "group": "dp", "yields": "group"}]})");
  CommandResult r = runIn(dir, "scan -q --no-cache --rules p.json --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "gridlock: warning: rule 'python megatron.core.ps.get_gone' (pack p) matched no "
            "definition in 5 Python modules\n"
            "gridlock: warning: rule 'python nolib.x.get_y' (pack p) matched no definition in 5 "
            "Python modules\n");
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["total"], 2);
}

// Megatron-Bridge's layout: its own code in the namespace package `megatron` (megatron/bridge,
// no megatron/__init__.py), megatron.core installed: megatron.core's rules are the library's.
TEST(Downstream, ANamespacePackageSharingTheLibrarysTopName) {
  std::string dir = makeTempDir("downstream-ns");
  writeFile(dir + "/src/megatron/bridge/__init__.py", "");
  writeFile(dir + "/src/megatron/bridge/model.py",
            "from megatron.core import parallel_state\n\n\n"
            "def f():\n    return parallel_state.get_data_parallel_group()\n");
  writeFile(dir + "/pyproject.toml",
            "[tool.gridlock]\nrules = [\"p.json\"]\npython_roots = [\"src\"]\n"
            "package_root = \"src\"\n");
  writeFile(dir + "/p.json", R"({"name": "p", "extends": ["megatron-core"],
  "scope": {"include": ["src/megatron/bridge/**"]}})");
  CommandResult r = runIn(dir, "scan -q --no-cache --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["summary"]["total"], 1) << r.out;
  EXPECT_EQ(j["reads"][0]["name"], "megatron.core.parallel_state.get_data_parallel_group");
}

// A scope glob matching files of the tree that no frontend reads (experimental/ holding a
// README alone, as Megatron-LM's does today) is no mistake; one matching no file at all (a
// typo) still warns.
TEST(Downstream, AScopeGlobMatchingOnlyFilesNotReadIsNoMistake) {
  std::string dir = makeTempDir("downstream-scope");
  writeFile(dir + "/pkg/__init__.py", "");
  writeFile(dir + "/pkg/ps.py", "def get_tp():\n    return None\n");
  writeFile(dir + "/experimental/README.md", "moved\n");
  writeFile(dir + "/p.json", R"({"name": "p",
  "scope": {"include": ["pkg/**", "experimental/**", "expermental/**"],
            "edges": ["experimental/**"]},
  "accessors": [
    {"python": "pkg.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]})");
  CommandResult r = runIn(dir, "scan -q --no-cache --rules p.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "gridlock: warning: scope include 'expermental/**' (pack p) matched no file in 2 "
            "translation units\n");
}

}  // namespace
}  // namespace gridlock::test
