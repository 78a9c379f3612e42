// The gridlock binary end to end: exit statuses, messages that name the problem, outputs,
// and the gate's baseline arithmetic on the bundled fixture.
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
const std::string kSrc = GRIDLOCK_SOURCE_DIR;
const std::string kFixtureArgs = std::string(" -p ") +
                                 GRIDLOCK_BINARY_DIR "/fixtures/scan --rules " +
                                 GRIDLOCK_SOURCE_DIR "/fixtures/scan/gridlock.json --root " +
                                 GRIDLOCK_SOURCE_DIR "/fixtures/scan";

TEST(ScanCli, TextDiagnosticsAreClangStyle) {
  CommandResult r = runCommand(kBin + " scan" + kFixtureArgs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("core/attention.cpp:23:36: warning: global tp src_rank from "
                       "gridlock::parallel_state::get_tensor_model_parallel_src_rank in "
                       "minitron::SelfAttention::src; fix: use this->pg_collection_->tp "
                       "[gridlock-global-read]\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("core/comm.cpp:9:39: note: expanded from macro 'TP_RANK' (spelled at "
                       "core/macros.h:6:45)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gridlock: 28 global reads in 6 files (7 translation units scanned, 0 "
                       "parse errors)\n"),
            std::string::npos)
      << r.out;
}

TEST(ScanCli, JsonHasTheContractFields) {
  CommandResult r = runCommand(kBin + " scan --format json" + kFixtureArgs);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["total"], 28);
  EXPECT_EQ(j["summary"]["by_kind"]["accessor"], 24);
  EXPECT_EQ(j["summary"]["by_kind"]["shim"], 1);
  EXPECT_EQ(j["summary"]["by_kind"]["global_state"], 3);
  EXPECT_EQ(j["summary"]["by_kind"]["laundered"], 0);
  EXPECT_EQ(j["summary"]["files_scanned"], 7);
  EXPECT_EQ(j["summary"]["parse_errors"], 0);
  EXPECT_EQ(j["summary"]["writes"], 2);
  const auto& first = j["reads"][0];
  for (const char* key :
       {"file", "line", "column", "name", "kind", "group", "enclosing", "guard", "macro", "fix"})
    EXPECT_TRUE(first.contains(key)) << key;
  EXPECT_EQ(first["file"], "core/attention.cpp");
  EXPECT_EQ(first["line"], 10);
  EXPECT_EQ(first["guard"], "fallback");
  EXPECT_EQ(first["enclosing"], "minitron::Attention::Attention");
  EXPECT_TRUE(first["macro"].is_null());
  // core/state.cpp: an assignment is a write; an address handed to a `int*` parameter a read
  // that may change it (`mutates`), counted; one handed to a `const int*` a plain read.
  std::map<std::string, std::string> state;  // enclosing -> "kind mutates"
  for (const auto& read : j["reads"])
    if (read["file"] == "core/state.cpp" && read["name"] == "gridlock::tp_shard::num_kv_heads")
      state[read["enclosing"].get<std::string>()] =
          read["kind"].get<std::string>() + (read["mutates"].get<bool>() ? " mutates" : "");
  EXPECT_EQ(state,
            (std::map<std::string, std::string>{{"minitron::configure", "global_write mutates"},
                                                {"minitron::kv_per_rank", "global_state"},
                                                {"minitron::restage", "global_state mutates"},
                                                {"minitron::peek", "global_state"}}));
}

TEST(ScanCli, SarifIsVersion210WithLocations) {
  CommandResult r = runCommand(kBin + " scan --format sarif" + kFixtureArgs);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "gridlock");
  EXPECT_EQ(run["results"].size(), 32u);  // 28 counted + 1 edge + 1 suppressed + 2 writes
  const auto& loc = run["results"][0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "core/attention.cpp");
  EXPECT_EQ(loc["region"]["startLine"], 10);
  size_t suppressed = 0;
  for (const auto& res : run["results"])
    if (res.contains("suppressions")) ++suppressed;
  EXPECT_EQ(suppressed, 1u);
}

TEST(ScanCli, ParseErrorExitsTwoAndNamesTheFile) {
  std::string args = std::string(" -p ") + GRIDLOCK_BINARY_DIR "/fixtures/broken --rules " + kSrc +
                     "/rules/gridlock-legacy.json --root " + kSrc + "/fixtures/broken";
  CommandResult r = runCommand(kBin + " scan --format json" + args);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: broken.cpp failed to parse"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("broken.cpp:5:68: error: expected ';' after return statement"),
            std::string::npos)
      << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["parse_errors"], 1);
  EXPECT_EQ(j["parse_errors"][0]["file"], "broken.cpp");

  CommandResult allowed = runCommand(kBin + " scan --allow-parse-errors" + args);
  EXPECT_EQ(allowed.status, 0);
  EXPECT_NE(allowed.err.find("broken.cpp failed to parse"), std::string::npos);
}

TEST(ScanCli, MissingCompileDatabaseIsBadInput) {
  CommandResult r =
      runCommand(kBin + " scan -p /nonexistent/build --rules " + kSrc + "/rules/mpi.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(
      r.err.find("no compile database: /nonexistent/build/compile_commands.json does not exist"),
      std::string::npos)
      << r.err;
}

TEST(ScanCli, MalformedRulePackNamesFileAndPath) {
  std::string dir = makeTempDir("rules");
  writeFile(dir + "/bad.json",
            R"({"name": "x", "accessors": [{"function": "f", "kind": "acessor", "group": "tp"}]})");
  CommandResult r = runCommand(kBin + " scan" + std::string(" -p ") + GRIDLOCK_BINARY_DIR +
                               "/fixtures/scan --rules " + dir + "/bad.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(dir + "/bad.json: /accessors/0/kind: expected one of \"accessor\", "
                             "\"shim\"; got \"acessor\""),
            std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

// A mistyped command is named, with the nearest command when it looks like a slip, and the
// list of commands (CLI11 alone says only that a subcommand is required).
TEST(Cli, AnUnknownCommandIsNamedWithTheNearestOne) {
  const std::string commands =
      "Commands: scan, gate, callers, rewrite, merge, grid, shard, pair (gridlock --help says "
      "more).\n";
  CommandResult r = runCommand(kBin + " scna -p build");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "gridlock: error: unknown command 'scna'; did you mean 'scan'?\n" + commands);
  CommandResult far = runCommand(kBin + " frobnicate");
  EXPECT_EQ(far.status, 2);
  EXPECT_EQ(far.err, "gridlock: error: unknown command 'frobnicate'\n" + commands);
}

// --help names the program in its usage lines, and says where compiler arguments go (after
// --), the formats and the exit statuses; each command's help its own.
TEST(Cli, HelpShowsDashDashFormatsAndExitStatuses) {
  CommandResult top = runCommand(kBin + " --help");
  ASSERT_EQ(top.status, 0) << top.err;
  EXPECT_EQ(top.out.rfind("gridlock: find and remove reads of global process-group state\n"
                          "Usage: gridlock [OPTIONS] COMMAND\n",
                          0),
            0u)
      << top.out;
  for (const char* part :
       {"\nCommands:\n  scan ", "\nCompiler arguments:\n  Everything after -- goes to the compiler",
        "    gridlock scan -p build --rules mpi -- -DWITH_NCCL=0\n",
        "\nFormats (--format; -o FILE writes the report there):\n  scan, gate, merge   text ",
        "  pair                text, json, markdown\n", "\nExit status:\n  0      success",
        "\n  1      the check found what it guards against: a count rose above the gate's "
        "baseline,\n         pair found a regression, rewrite --diff --check found edits to "
        "make\n",
        "\n  2      bad input or an internal error: an unknown command, option, rule pack or key",
        "\n  128+N  pair was interrupted by signal N\n"})
    EXPECT_NE(top.out.find(part), std::string::npos) << part << "\n---\n" << top.out;

  CommandResult scan = runCommand(kBin + " scan --help");
  ASSERT_EQ(scan.status, 0) << scan.err;
  EXPECT_NE(scan.out.find("Usage: gridlock scan [OPTIONS] [files...] [-- COMPILER-ARG...]\n"),
            std::string::npos)
      << scan.out;
  EXPECT_NE(scan.out.find("After --: compiler arguments for every translation unit"),
            std::string::npos)
      << scan.out;
  EXPECT_NE(scan.out.find("Formats: text (clang-style diagnostics, then a summary), json, sarif "
                          "(SARIF 2.1.0),\ngithub (a workflow command per finding: ::warning "
                          "file=F,line=L,col=C,title=CHECK::MESSAGE).\nExit status: 0 the "
                          "inventory is complete; 2 bad input"),
            std::string::npos)
      << scan.out;
  CommandResult gate = runCommand(kBin + " gate --help");
  EXPECT_NE(gate.out.find("Exit status: 0 passed (or the baseline was created or shrunk); 1 a "
                          "count rose above the\nbaseline"),
            std::string::npos)
      << gate.out;
  // pair runs no compiler: no `--` in its usage.
  CommandResult pair = runCommand(kBin + " pair --help");
  EXPECT_NE(pair.out.find("Usage: gridlock pair [OPTIONS]\n"), std::string::npos) << pair.out;
  EXPECT_NE(pair.out.find("Formats: text, json, markdown.\n"), std::string::npos) << pair.out;
}

// Where a report cannot go is bad input found before the scan, not after it: nothing but the
// one error is printed (a rewrite that ran would have listed the reads it leaves).
TEST(Cli, AnOutputPathThatCannotBeWrittenIsRefusedBeforeTheScan) {
  std::string dir = makeTempDir("outputs");
  writeFile(dir + "/file.txt", "a file\n");
  CommandResult missing = runCommand(kBin + " scan" + kFixtureArgs + " -o " + dir + "/no/r.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(missing.err, "gridlock: error: -o " + dir + "/no/r.json: the directory " + dir +
                             "/no does not exist\n");
  CommandResult isDir =
      runCommand(kBin + " gate" + kFixtureArgs + " --baseline " + kSrc +
                 "/fixtures/scan/gridlock-baseline.json --format sarif -o " + dir);
  EXPECT_EQ(isDir.status, 2);
  EXPECT_EQ(isDir.err, "gridlock: error: -o " + dir + ": is a directory\n");
  CommandResult fixes = runCommand(kBin + " rewrite" + kFixtureArgs + " --export-fixes " + dir +
                                   "/file.txt/fixes.yaml");
  EXPECT_EQ(fixes.status, 2);
  EXPECT_EQ(fixes.err, "gridlock: error: --export-fixes " + dir + "/file.txt/fixes.yaml: " + dir +
                           "/file.txt is not a directory\n");
  CommandResult shard = runCommand(kBin + " scan" + kFixtureArgs + " --shard 1/2 --facts-out " +
                                   dir + "/no/shard.facts");
  EXPECT_EQ(shard.status, 2);
  EXPECT_EQ(shard.err, "gridlock: error: --facts-out " + dir + "/no/shard.facts: the directory " +
                           dir + "/no does not exist\n");
  std::filesystem::remove_all(dir);
}

TEST(GateCli, BaselineLifecycle) {
  std::string dir = makeTempDir("gate");
  std::string base = dir + "/baseline.json";
  std::string gate = kBin + " gate" + kFixtureArgs + " --baseline " + base;

  CommandResult missing = runCommand(gate);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("no baseline at " + base), std::string::npos);

  CommandResult created = runCommand(gate + " --update");
  ASSERT_EQ(created.status, 0) << created.out << created.err;
  EXPECT_NE(
      created.out.find("gate: created baseline " + base + " with 28 reads and 2 writes in 28 keys"),
      std::string::npos)
      << created.out;
  std::string bytes = readFile(base);

  CommandResult same = runCommand(gate);
  EXPECT_EQ(same.status, 0);
  EXPECT_NE(same.out.find("gate: passed: 28 global reads and 2 writes, as in the baseline"),
            std::string::npos);
  EXPECT_NE(same.out.find("allowed: core/state.cpp:18: "
                          "gridlock::parallel_state::get_data_parallel_world_size (only logs the "
                          "layout once at start-up)"),
            std::string::npos)
      << same.out;

  // A lower baseline count: the gate fails and names the key; --update will not grow it.
  auto j = nlohmann::json::parse(bytes);
  for (auto& e : j["entries"])
    if (e["enclosing"] == "minitron::rank_twice") e["count"] = 1;
  writeFile(base, j.dump(2) + "\n");
  CommandResult rose = runCommand(gate);
  EXPECT_EQ(rose.status, 1);
  EXPECT_NE(rose.out.find("rose: core/comm.cpp | minitron::rank_twice | "
                          "gridlock::parallel_state::get_tensor_model_parallel_rank: 1 -> 2"),
            std::string::npos)
      << rose.out;
  std::string lowered = readFile(base);
  CommandResult refuse = runCommand(gate + " --update");
  EXPECT_EQ(refuse.status, 1);
  EXPECT_NE(refuse.out.find("refusing to grow the baseline"), std::string::npos);
  EXPECT_EQ(readFile(base), lowered);

  // A key the baseline lacks is new.
  j = nlohmann::json::parse(bytes);
  j["entries"].erase(0);
  writeFile(base, j.dump(2) + "\n");
  CommandResult added = runCommand(gate);
  EXPECT_EQ(added.status, 1);
  EXPECT_NE(added.out.find("new:  core/attention.cpp | minitron::Attention::Attention | "
                           "gridlock::parallel_state::get_tensor_model_parallel_group: 1 read(s)"),
            std::string::npos)
      << added.out;

  // A higher baseline count: passes, says counts fell; --update shrinks it back, byte-stable.
  j = nlohmann::json::parse(bytes);
  j["entries"][0]["count"] = 5;
  writeFile(base, j.dump(2) + "\n");
  CommandResult fell = runCommand(gate);
  EXPECT_EQ(fell.status, 0);
  EXPECT_NE(fell.out.find("counts fell from 32 to 28; run with --update"), std::string::npos)
      << fell.out;
  CommandResult shrink = runCommand(gate + " --update");
  EXPECT_EQ(shrink.status, 0);
  EXPECT_EQ(readFile(base), bytes);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gridlock::test
