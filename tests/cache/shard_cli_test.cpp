// Sharded scans: `scan --shard I/N --facts-out F` on each of N machines, then `gridlock merge`,
// must give the bytes and the verdict one full scan gives; merge refuses an incomplete,
// overlapping or mixed set of shards.
#include "cache/fixture_copy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

class ShardCli : public ::testing::Test {
 protected:
  std::string facts(size_t i, size_t n) const {
    return fx.dir + "/shard-" + std::to_string(i) + "-of-" + std::to_string(n) + ".facts";
  }
  // Runs shard i/n and returns its result; its facts go to facts(i, n).
  CommandResult shard(size_t i, size_t n, const std::string& extra = " --no-cache") const {
    return gridlock("scan --shard " + std::to_string(i) + "/" + std::to_string(n) +
                    " --facts-out " + facts(i, n) + fx.args() + extra);
  }
  std::string all(size_t n) const {
    std::string files;
    for (size_t i = 1; i <= n; ++i) files += " " + facts(i, n);
    return files;
  }

  FixtureCopy fx;
};

// The TUs a shard scanned, from its -v lines ("gridlock: shard 1/2: core/comm.cpp").
std::vector<std::string> unitsOf(const std::string& err) {
  std::vector<std::string> out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("gridlock: shard ", 0) == 0 && line.find(": ", 16) != std::string::npos &&
        line.find("translation unit") == std::string::npos)
      out.push_back(line.substr(line.find(": ", 16) + 2));
  return out;
}

TEST_F(ShardCli, MergedShardsAreByteIdenticalToOneScan) {
  std::map<std::string, CommandResult> full;
  for (const std::string format : {"json", "sarif", "text"}) {
    full[format] = gridlock("scan --no-cache --format " + format + fx.args());
    ASSERT_EQ(full[format].status, 0) << full[format].err;
  }
  for (size_t n : {1u, 2u, 3u}) {
    for (size_t i = 1; i <= n; ++i) {
      CommandResult r = shard(i, n);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, "");  // the facts go to the file, no report
      // What one shard did not match another may: merge warns, for the whole scan.
      EXPECT_EQ(r.err.find("matched no"), std::string::npos) << r.err;
      ASSERT_TRUE(fs::exists(facts(i, n)));
    }
    for (const std::string format : {"json", "sarif", "text"}) {
      CommandResult merged = gridlock("merge --format " + format + all(n));
      EXPECT_EQ(merged.status, 0) << merged.err;
      EXPECT_EQ(merged.out, full[format].out) << n << " shards, " << format;
      EXPECT_EQ(merged.err, full[format].err) << n << " shards, " << format;
      EXPECT_NE(merged.err.find("matched no"), std::string::npos) << merged.err;
    }
  }
  // Merged in any order of the files.
  CommandResult reversed =
      gridlock("merge --format json " + facts(3, 3) + " " + facts(1, 3) + " " + facts(2, 3));
  EXPECT_EQ(reversed.out, full["json"].out);
  // -o writes the same bytes.
  CommandResult toFile = gridlock("merge --format sarif -o " + fx.dir + "/out.sarif" + all(2));
  EXPECT_EQ(toFile.status, 0);
  EXPECT_EQ(readFile(fx.dir + "/out.sarif"), full["sarif"].out);
}

TEST_F(ShardCli, ShardsSplitTheUnitsOnceEachStably) {
  std::vector<std::string> seen;
  for (size_t i = 1; i <= 3; ++i) {
    CommandResult r = shard(i, 3, " --no-cache -v");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> units = unitsOf(r.err);
    EXPECT_FALSE(units.empty()) << "shard " << i << ": " << r.err;
    // Contiguous in path order: each shard's first unit sorts after the last one's last.
    if (!seen.empty() && !units.empty()) EXPECT_LT(seen.back(), units.front());
    seen.insert(seen.end(), units.begin(), units.end());
    // The same split on another run.
    EXPECT_EQ(unitsOf(shard(i, 3, " --no-cache -v").err), units);
  }
  std::vector<std::string> expected = {
      "core/attention.cpp", "core/comm.cpp",    "core/other_names.cpp", "core/state.cpp",
      "core/templates.cpp", "kernels/scale.cu", "train/main.cpp"};
  EXPECT_EQ(seen, expected);

  // Balanced by size: no shard holds more than a third of the bytes plus one file.
  std::uintmax_t total = 0, largest = 0;
  for (const auto& u : expected) {
    std::uintmax_t s = fs::file_size(fx.root + "/" + u);
    total += s;
    largest = std::max(largest, s);
  }
  for (size_t i = 1; i <= 3; ++i) {
    std::uintmax_t bytes = 0;
    for (const auto& u : unitsOf(shard(i, 3, " --no-cache -v").err))
      bytes += fs::file_size(fx.root + "/" + u);
    EXPECT_LE(bytes, total / 3 + largest) << "shard " << i;
  }
}

TEST_F(ShardCli, MoreShardsThanUnitsLeavesSomeEmpty) {
  std::string full = gridlock("scan --no-cache --format json" + fx.args()).out;
  for (size_t i = 1; i <= 9; ++i) ASSERT_EQ(shard(i, 9).status, 0);
  CommandResult merged = gridlock("merge --format json" + all(9));
  EXPECT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.out, full);
}

TEST_F(ShardCli, CachedShardsMergeToTheCachedScan) {
  CommandResult first = gridlock("scan --format json" + fx.args());
  ASSERT_EQ(first.status, 0);
  CommandResult warm = gridlock("scan --format json" + fx.args());
  for (size_t i = 1; i <= 2; ++i) ASSERT_EQ(shard(i, 2, "").status, 0);
  CommandResult merged = gridlock("merge --format json" + all(2));
  EXPECT_EQ(merged.out, warm.out);  // summary.cache too: 7 hits, 0 misses
  EXPECT_NE(merged.out.find("\"hits\": 7"), std::string::npos) << merged.out;
}

TEST_F(ShardCli, MergeWithBaselineGivesTheGateVerdict) {
  std::string base = fx.dir + "/baseline.json";
  ASSERT_EQ(gridlock("gate --no-cache" + fx.args() + " --baseline " + base + " --update").status,
            0);
  fx.write("core/attention.cpp",
           fx.read("core/attention.cpp") +
               "namespace minitron {\n"
               "int added_read() { return gridlock::parallel_state::get_data_parallel_rank(); }\n"
               "}  // namespace minitron\n");
  CommandResult gate = gridlock("gate --no-cache" + fx.args() + " --baseline " + base);
  EXPECT_EQ(gate.status, 1) << gate.out << gate.err;
  for (size_t i = 1; i <= 2; ++i) ASSERT_EQ(shard(i, 2).status, 0);
  CommandResult merged = gridlock("merge --baseline " + base + all(2));
  EXPECT_EQ(merged.status, 1);
  EXPECT_EQ(merged.out, gate.out);
  EXPECT_NE(merged.out.find("gate: FAILED"), std::string::npos) << merged.out;
}

// A source of the scope that no unit covers fails the merged gate as it fails one gate (exit
// 2, named); --allow-uncovered gives the verdict.
TEST_F(ShardCli, MergeWithBaselineNamesFilesNoUnitCovers) {
  std::string base = fx.dir + "/baseline.json";
  ASSERT_EQ(gridlock("gate --no-cache" + fx.args() + " --baseline " + base + " --update").status,
            0);
  fx.write("core/unbuilt.cpp", "int unbuilt() { return 0; }\n");
  const std::string named =
      "gridlock: error: core/unbuilt.cpp: in the rule packs' scope, but no compile database "
      "entry covers it (no unit compiles or includes it): the gate cannot see its reads\n";
  CommandResult gate = gridlock("gate -q --no-cache" + fx.args() + " --baseline " + base);
  EXPECT_EQ(gate.status, 2);
  EXPECT_NE(gate.err.find(named), std::string::npos) << gate.err;
  for (size_t i = 1; i <= 2; ++i) ASSERT_EQ(shard(i, 2).status, 0);
  CommandResult merged = gridlock("merge --baseline " + base + all(2));
  EXPECT_EQ(merged.status, 2);
  EXPECT_NE(merged.err.find(named), std::string::npos) << merged.err;
  EXPECT_EQ(merged.out, "");
  CommandResult allowed = gridlock("merge --allow-uncovered --baseline " + base + all(2));
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_NE(allowed.out.find("gate: passed"), std::string::npos) << allowed.out;
}

TEST_F(ShardCli, MergeRefusesWhatIsNotOneWholeScan) {
  for (size_t i = 1; i <= 2; ++i) ASSERT_EQ(shard(i, 2).status, 0);
  ASSERT_EQ(shard(1, 3).status, 0);
  std::string out = fx.dir + "/report.json";

  auto refused = [&](const std::string& files, const std::string& message) {
    CommandResult r = gridlock("merge --format json -o " + out + " " + files);
    EXPECT_EQ(r.status, 2) << files;
    EXPECT_NE(r.err.find("gridlock: error: " + message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
  };
  refused(facts(1, 2), "shard 2/2 is missing");
  refused(facts(1, 2) + " " + facts(1, 2) + " " + facts(2, 2),
          "shard 1/2 is given twice: " + facts(1, 2) + " and " + facts(1, 2));
  refused(facts(1, 2) + " " + facts(1, 3),
          facts(1, 3) + " is shard 1/3 but " + facts(1, 2) + " is shard 1/2");

  // A shard of another configuration: the rule packs changed between the two.
  std::string pack = fx.read("gridlock.json");
  pack.replace(pack.find("\"exclude\": []"), 13, "\"exclude\": [\"kernels/**\"]");
  fx.write("gridlock.json", pack);
  ASSERT_EQ(shard(2, 2).status, 0);
  refused(facts(1, 2) + " " + facts(2, 2),
          facts(2, 2) + " was scanned with other rule packs than " + facts(1, 2));

  writeFile(fx.dir + "/not.facts", "{}\n");
  refused(fx.dir + "/not.facts", fx.dir + "/not.facts: not a gridlock facts file");
  std::string bytes = readFile(facts(1, 3));
  writeFile(fx.dir + "/cut.facts", bytes.substr(0, bytes.size() - 7));
  refused(fx.dir + "/cut.facts", fx.dir + "/cut.facts: damaged facts file (truncated)");
  refused(fx.dir + "/absent.facts", fx.dir + "/absent.facts: cannot read");
}

TEST_F(ShardCli, BadShardFlagsAreBadInput) {
  for (const std::string spec : {"0/2", "3/2", "a/b", "2", "1/0"}) {
    CommandResult r =
        gridlock("scan --shard " + spec + " --facts-out " + fx.dir + "/f" + fx.args());
    EXPECT_EQ(r.status, 2) << spec;
    EXPECT_NE(r.err.find("--shard: expected I/N with 1 <= I <= N, got " + spec), std::string::npos)
        << r.err;
  }
  CommandResult alone = gridlock("scan --shard 1/2" + fx.args());
  EXPECT_EQ(alone.status, 2);
  EXPECT_NE(alone.err.find("--shard needs --facts-out"), std::string::npos) << alone.err;
}

}  // namespace
}  // namespace gridlock::test
