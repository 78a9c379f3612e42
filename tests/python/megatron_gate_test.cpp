// `gridlock gate` on Megatron-LM as the README has a user run it, from a `.gridlock.json`: a
// baseline written by --update, a pass, a new read that fails it at its file:line, the same read
// allowed with a reason, and SARIF carrying that reason. The checkout GRIDLOCK_MEGATRON_LM is
// never written: its Python files are copied into a temporary directory first (skipped without
// a checkout, or without GRIDLOCK_MEGATRON_COMMIT naming which of the three commits it holds).
//
// The expected totals are rules/megatron-core.json's at each commit, the ratchet's count plus
// the extras docs/real-codebases.md itemises ("What the gate pack adds"): 207 + 70 = 277 at
// bf71c142, 155 + 65 = 220 at 3f4234de, 210 + 73 = 283 at d98e8a64 in megatron/core read alone
// (tests/python/megatron_ratchet_test.cpp). The gate reads the whole checkout, its other
// directories as edges, and at d98e8a64 megatron/core calls into one of them: 3 more laundered
// reads, 286 (vlm_dynamic_inference.py:234 and 239 call megatron.training.training.get_model, 243
// megatron.training.checkpointing.load_checkpoint, leaving out the groups whose None makes them
// call use_mpu_process_groups() or mpu's getters). At the other two commits no file in
// megatron/core imports from the rest of the repository.
#include "python/megatron_commit.h"
#include "support/run_command.h"
#include "support/source_files.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kBin = GRIDLOCK_BIN;

size_t expectedReads(const std::string& commit) {
  static const std::map<std::string, size_t> kReads = {
      {"bf71c142", 277}, {"3f4234de", 220}, {"d98e8a64", 286}};
  return kReads.at(commit);
}

// Every Python file of the checkout (all a Python scan reads), under `to`.
size_t copyPython(const fs::path& from, const fs::path& to) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(from)) {
    if (!e.is_regular_file() || !support::isPythonSource(e.path().string())) continue;
    fs::path dest = to / e.path().lexically_relative(from);
    fs::create_directories(dest.parent_path());
    fs::copy_file(e.path(), dest);
    ++n;
  }
  return n;
}

size_t lineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(MegatronGate, FromGridlockJsonWithABaselineASuppressionAndSarif) {
  const std::string root = megatronRoot(), commit = megatronCommit();
  if (root.empty()) GTEST_SKIP() << "GRIDLOCK_MEGATRON_LM names no Megatron-LM checkout";
  if (commit.empty())
    GTEST_SKIP() << "GRIDLOCK_MEGATRON_COMMIT names none of bf71c142, 3f4234de, d98e8a64";
  const size_t n = expectedReads(commit);
  const std::string dir = fs::canonical(makeTempDir("megatron-gate")).string();
  ASSERT_GT(copyPython(root, dir), 500u);
  writeFile(dir + "/.gridlock.json",
            R"({"rules": ["megatron-core"], "baseline": ".gridlock-baseline.json"})");
  const std::string gate = "cd " + dir + " && " + kBin + " gate";

  // --update: the baseline holds every counted read, N in all.
  CommandResult created = runCommand(gate + " --update");
  ASSERT_EQ(created.status, 0) << created.out << created.err;
  auto baseline = nlohmann::json::parse(readFile(dir + "/.gridlock-baseline.json"));
  size_t sum = 0;
  std::set<std::tuple<std::string, std::string, std::string>> keys;
  for (const auto& e : baseline["entries"]) {
    sum += e["count"].get<size_t>();
    keys.insert({e["file"].get<std::string>(), e["enclosing"].get<std::string>(),
                 e["name"].get<std::string>()});
  }
  EXPECT_EQ(baseline["total"], n);
  EXPECT_EQ(sum, n);
  EXPECT_EQ(keys.size(), baseline["entries"].size());  // one entry per key
  EXPECT_EQ(created.out, "gate: created baseline " + dir + "/.gridlock-baseline.json with " +
                             std::to_string(n) + " reads in " + std::to_string(keys.size()) +
                             " keys\n");

  CommandResult same = runCommand(gate);
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_EQ(same.out, "gate: passed: " + std::to_string(n) + " global reads, as in the baseline\n");

  // A new function in megatron/core/utils.py (which imports parallel_state at each commit)
  // reads the global tp size: the `def` is two lines below the file's last, the read on the
  // next, at column 27 (`    return parallel_state.` is 26 characters).
  const std::string utils = dir + "/megatron/core/utils.py";
  const std::string source = readFile(utils);
  ASSERT_TRUE(source.ends_with("\n"));
  const std::string line = std::to_string(lineCount(source) + 4);
  const std::string accessor = "megatron.core.parallel_state.get_tensor_model_parallel_world_size";
  writeFile(utils, source + "\n\ndef _layout_note():\n    return parallel_state." +
                       "get_tensor_model_parallel_world_size()\n");
  CommandResult failed = runCommand(gate);
  EXPECT_EQ(failed.status, 1) << failed.err;
  EXPECT_EQ(failed.out,
            "megatron/core/utils.py:" + line + ":27: error: new global read: global tp size from " +
                accessor +
                " in megatron.core.utils._layout_note; fix: thread a group parameter "
                "[gridlock-gate]\n"
                "new:  megatron/core/utils.py | megatron.core.utils._layout_note | " +
                accessor + ": 1 read(s) not in the baseline\n" +
                "gate: FAILED: global reads rose (" + std::to_string(n) + " in the baseline, " +
                std::to_string(n + 1) +
                " now)\n"
                "gate: remove each read above (its fix says how), or allow a deliberate one with "
                "`# gridlock: allow(reason)` (docs/suppressions.md)\n");

  const std::string reason = "logs the layout once at start-up";
  writeFile(utils, source + "\n\ndef _layout_note():\n    return parallel_state." +
                       "get_tensor_model_parallel_world_size()  # gridlock: allow(" + reason +
                       ")\n");
  CommandResult allowed = runCommand(gate);
  EXPECT_EQ(allowed.status, 0) << allowed.out << allowed.err;
  EXPECT_EQ(allowed.out, "allowed: megatron/core/utils.py:" + line + ": " + accessor + " (" +
                             reason + ")\ngate: passed: " + std::to_string(n) +
                             " global reads, as in the baseline\n");

  // SARIF: the N counted reads and the allowed one are warnings in megatron/core, the allowed
  // one carrying its reason; the edge files' reads and writes (every file outside
  // megatron/core) are notes; the gate passes, so every result is unchanged.
  CommandResult sarif = runCommand(gate + " --format sarif -o gate.sarif");
  EXPECT_EQ(sarif.status, 0) << sarif.out << sarif.err;
  auto s = nlohmann::json::parse(readFile(dir + "/gate.sarif"));
  EXPECT_EQ(s["version"], "2.1.0");
  size_t warnings = 0, suppressed = 0;
  for (const auto& r : s["runs"][0]["results"]) {
    const std::string file = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    EXPECT_EQ(r["level"], file.starts_with("megatron/core/") ? "warning" : "note") << r.dump();
    EXPECT_EQ(r["baselineState"], "unchanged") << r.dump();
    warnings += r["level"] == "warning";
    if (!r.contains("suppressions")) continue;
    ++suppressed;
    const auto& place = r["locations"][0]["physicalLocation"];
    EXPECT_EQ(place["artifactLocation"]["uri"], "megatron/core/utils.py");
    EXPECT_EQ(place["region"]["startLine"], std::stoi(line));
    EXPECT_EQ(r["suppressions"],
              nlohmann::json::array({{{"kind", "inSource"}, {"justification", reason}}}));
  }
  EXPECT_EQ(warnings, n + 1);
  EXPECT_EQ(suppressed, 1u);
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace gridlock::test
