// The Clang plugin (tool/plugin): a build of the fixture that loads it writes one facts file per
// compile, and `gridlock merge` of them gives the bytes a scan of the same units gives. A bad
// argument or pack fails the compile, naming it; merge refuses a directory with no facts and a
// mix of the plugin's facts with a scan's shards.
#include "cache/fixture_copy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kPlugin = GRIDLOCK_PLUGIN;
const std::string kClang = GRIDLOCK_CLANGXX;

std::vector<std::string> words(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

class PluginCli : public ::testing::Test {
 protected:
  // The fixture's C++ units (nvcc compiles the .cu one, not clang): the database keeps only
  // them, so the scan and the build cover the same units.
  void SetUp() override {
    nlohmann::json db = nlohmann::json::parse(readFile(fx.build + "/compile_commands.json"));
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& e : db)
      if (e["file"].get<std::string>().find(".cu") == std::string::npos) kept.push_back(e);
    writeFile(fx.build + "/compile_commands.json", kept.dump(2));
    entries = kept;
    out = fx.dir + "/facts";
    fs::create_directories(out);
  }
  // Compiles one database entry with clang and the plugin: its own command, with clang as the
  // compiler and -fsyntax-only for -c -o.
  CommandResult compile(const nlohmann::json& e, const std::string& pluginArgs) const {
    std::vector<std::string> args = e.contains("arguments")
                                        ? e["arguments"].get<std::vector<std::string>>()
                                        : words(e["command"].get<std::string>());
    std::string line = kClang;
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "-c") continue;
      if (args[i] == "-o") {
        ++i;
        continue;
      }
      line += " '" + args[i] + "'";
    }
    line += " -fsyntax-only -fplugin=" + kPlugin + pluginArgs;
    return runCommand("cd '" + e["directory"].get<std::string>() + "' && " + line);
  }
  std::string pluginArgs() const {
    return " -fplugin-arg-gridlock-out=" + out + " -fplugin-arg-gridlock-root=" + fx.root +
           " -fplugin-arg-gridlock-rules=" + fx.rules;
  }
  size_t factsFiles() const {
    size_t n = 0;
    for (const auto& f : fs::directory_iterator(out)) n += f.path().extension() == ".facts";
    return n;
  }

  FixtureCopy fx;
  nlohmann::json entries;
  std::string out;
};

TEST_F(PluginCli, ABuildsFactsMergeToTheBytesOfAScan) {
  ASSERT_EQ(entries.size(), 6u);  // core/attention, other_names, templates, state, comm; main
  for (const auto& e : entries) {
    CommandResult r = compile(e, pluginArgs());
    ASSERT_EQ(r.status, 0) << e.dump() << "\n" << r.err;
  }
  EXPECT_EQ(factsFiles(), entries.size());
  for (const std::string format : {"json", "sarif", "text"}) {
    CommandResult scan = gridlock("scan --no-cache --format " + format + fx.args());
    ASSERT_EQ(scan.status, 0) << scan.err;
    CommandResult merged = gridlock("merge --format " + format + " " + out);
    EXPECT_EQ(merged.status, 0) << merged.err;
    // The JSON's summary.cache says how the scan got its facts (here: parsed, no cache).
    if (format == "json")
      EXPECT_EQ(withoutCacheCounts(merged.out), withoutCacheCounts(scan.out));
    else
      EXPECT_EQ(merged.out, scan.out) << format;
    EXPECT_EQ(merged.err, scan.err) << format;
  }
  // A compile again (the file rebuilt) replaces its facts file, never adds one.
  ASSERT_EQ(compile(entries[0], pluginArgs()).status, 0);
  EXPECT_EQ(factsFiles(), entries.size());
}

TEST_F(PluginCli, BadArgumentsFailTheCompileNamingThem) {
  const nlohmann::json& e = entries[0];
  struct Case {
    std::string args, message;
  } cases[] = {
      {" -fplugin-arg-gridlock-root=" + fx.root + " -fplugin-arg-gridlock-rules=" + fx.rules,
       "gridlock plugin: -fplugin-arg-gridlock-out=DIR is required"},
      {pluginArgs() + " -fplugin-arg-gridlock-colour=red",
       "gridlock plugin: unknown argument 'colour' (out=DIR, root=DIR, rules=PACK)"},
      {" -fplugin-arg-gridlock-out=" + fx.dir + "/nowhere -fplugin-arg-gridlock-root=" + fx.root +
           " -fplugin-arg-gridlock-rules=" + fx.rules,
       "gridlock plugin: out=" + fx.dir + "/nowhere: not a directory"},
      {" -fplugin-arg-gridlock-out=" + out + " -fplugin-arg-gridlock-root=" + fx.root +
           " -fplugin-arg-gridlock-rules=" + fx.dir + "/missing.json",
       fx.dir + "/missing.json"},
  };
  for (const auto& c : cases) {
    CommandResult r = compile(e, c.args);
    EXPECT_NE(r.status, 0) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.message << "\n" << r.err;
  }
  EXPECT_EQ(factsFiles(), 0u);
}

TEST_F(PluginCli, MergeRefusesNoFactsAndAMixWithShards) {
  CommandResult empty = gridlock("merge --format json " + out);
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.err.find(out + ": no facts files (*.facts) in it"), std::string::npos)
      << empty.err;
  EXPECT_EQ(empty.out, "");

  ASSERT_EQ(compile(entries[0], pluginArgs()).status, 0);
  std::string shard = fx.dir + "/shard.facts";
  ASSERT_EQ(gridlock("scan --no-cache --shard 1/1 --facts-out " + shard + fx.args()).status, 0);
  CommandResult mixed = gridlock("merge --format json " + out + " " + shard);
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.err.find("is the Clang plugin's facts of one unit but " + shard +
                           " is a shard of a scan"),
            std::string::npos)
      << mixed.err;
}

}  // namespace
}  // namespace gridlock::test
