// Packs by name: `--rules mpi` and `"extends": ["gridlock-legacy"]` resolve beside the config
// (or the extending pack), then in the shipped packs; paths keep working; an unknown name says
// where it looked, what is shipped and the nearest name. Also the `$schema` key every shipped
// pack carries.
#include "rules/pack_lookup.h"
#include "rules/rule_pack.h"
#include "rules/rule_set.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace gridlock::rules {
namespace {

namespace fs = std::filesystem;

const std::string kRules = GRIDLOCK_SOURCE_DIR "/rules";

// A fresh directory for one test, removed afterwards.
class PackLookup : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gridlock-packs-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& rel, const std::string& text) {
    fs::path p = fs::path(dir_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string dir_;
};

const char* kOnePack = R"({"name": "%s", "globals": [{"variable": "%s"}]})";
std::string onePack(const std::string& name, const std::string& variable) {
  char buf[256];
  std::snprintf(buf, sizeof buf, kOnePack, name.c_str(), variable.c_str());
  return buf;
}

TEST(PackRef, NamesArePlainWordsAndPathsEndInJsonOrHaveASlash) {
  EXPECT_TRUE(isPackName("mpi"));
  EXPECT_TRUE(isPackName("gridlock-legacy"));
  EXPECT_FALSE(isPackName("mpi.json"));
  EXPECT_FALSE(isPackName("rules/mpi"));
  EXPECT_FALSE(isPackName("/abs/mpi.json"));
  EXPECT_FALSE(isPackName(""));
}

TEST(PackLookupShipped, ABuildTreeBinaryFindsTheSourceTreesPacks) {
  // This test binary lives in the build tree, so the source tree's rules/ is a shipped dir.
  std::vector<PackDir> dirs = shippedPackDirs();
  ASSERT_FALSE(dirs.empty());
  bool source = false;
  for (const auto& d : dirs)
    if (fs::equivalent(d.dir, kRules)) source = d.what == "source tree";
  EXPECT_TRUE(source);
}

TEST_F(PackLookup, ANameIsLookedUpBesideTheAnchorFirstThenInTheShippedDirs) {
  write("beside/mine.json", onePack("mine-beside", "a"));
  write("shipped1/mine.json", onePack("mine-shipped1", "b"));
  write("shipped1/other.json", onePack("other-1", "c"));
  write("shipped2/other.json", onePack("other-2", "d"));
  write("shipped2/third.json", onePack("third-2", "e"));
  std::vector<PackDir> shipped = {{dir_ + "/shipped1", "installed"},
                                  {dir_ + "/shipped2", "source tree"}};
  PackAnchor anchor{dir_ + "/beside", "beside the config"};
  EXPECT_EQ(resolvePack("mine", anchor, shipped), dir_ + "/beside/mine.json");
  EXPECT_EQ(resolvePack("other", anchor, shipped), dir_ + "/shipped1/other.json");
  EXPECT_EQ(resolvePack("third", anchor, shipped), dir_ + "/shipped2/third.json");
}

TEST_F(PackLookup, APathIsRelativeToTheAnchorAndNeverSearched) {
  write("beside/sub/p.json", onePack("p", "a"));
  write("shipped/q.json", onePack("q", "b"));
  std::vector<PackDir> shipped = {{dir_ + "/shipped", "installed"}};
  PackAnchor anchor{dir_ + "/beside", "beside the pack"};
  EXPECT_EQ(resolvePack("sub/p.json", anchor, shipped), dir_ + "/beside/sub/p.json");
  EXPECT_EQ(resolvePack("/x/y.json", anchor, shipped), "/x/y.json");
  // A path is taken as written, even when a shipped pack has its file name.
  EXPECT_EQ(resolvePack("q.json", anchor, shipped), dir_ + "/beside/q.json");
  // The working directory when the anchor has none (command-line --rules).
  EXPECT_EQ(resolvePack("sub/p.json", PackAnchor{}, shipped), "sub/p.json");
}

// Where it looked, the shipped packs (the *.json of the shipped directories, once each, in name
// order), and the nearest of them when the name is a slip.
TEST_F(PackLookup, AnUnknownNameSaysWhereItLookedAndWhatIsShipped) {
  write("shipped/mpi.json", onePack("mpi", "a"));
  write("shipped/gridlock-legacy.json", onePack("gridlock-legacy", "b"));
  write("shipped/README.txt", "not a pack");
  write("shipped2/mpi.json", onePack("mpi", "c"));
  write("cfg/mpk.json", onePack("beside", "d"));  // beside the config: not shipped
  std::vector<PackDir> shipped = {{dir_ + "/shipped", "installed"},
                                  {dir_ + "/shipped2", "source tree"}};
  try {
    resolvePack("nope", PackAnchor{dir_ + "/cfg", "beside the config"}, shipped);
    FAIL() << "resolved an unknown name";
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown rule pack \"nope\": no nope.json in " + dir_ +
                                         "/cfg (beside the config), " + dir_ +
                                         "/shipped (installed), " + dir_ +
                                         "/shipped2 (source tree); the shipped packs are "
                                         "gridlock-legacy, mpi");
  }
  try {  // a directory both beside and shipped is listed once
    resolvePack("mpl", PackAnchor{dir_ + "/shipped", "beside the pack"}, shipped);
    FAIL() << "resolved an unknown name";
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown rule pack \"mpl\": no mpl.json in " + dir_ +
                                         "/shipped (beside the pack), " + dir_ +
                                         "/shipped2 (source tree); the shipped packs are "
                                         "gridlock-legacy, mpi; did you mean \"mpi\"?");
  }
  try {
    resolvePack("nope", PackAnchor{}, {});
    FAIL() << "resolved an unknown name";
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown rule pack \"nope\": no nope.json in (no pack directories: this binary has "
              "no share/gridlock/rules beside it)");
  }
}

// The example packs (rules/examples) resolve by name after the shipped ones, and an unknown
// name's error lists them apart.
TEST_F(PackLookup, ExamplePackByName) {
  RuleSet set = RuleSet::load({"deepspeed-autotp"});
  ASSERT_EQ(set.packs().size(), 1u);
  EXPECT_EQ(set.packs()[0].name, "deepspeed-autotp");
  EXPECT_TRUE(fs::equivalent(set.packs()[0].path, kRules + "/examples/deepspeed-autotp.json"));
  write("shipped/mpi.json", onePack("mpi", "a"));
  write("shipped/examples/lulesh.json", onePack("lulesh", "b"));
  write("shipped/examples/hpccg.json", onePack("hpccg", "c"));
  std::vector<PackDir> shipped = {{dir_ + "/shipped", "installed"},
                                  {dir_ + "/shipped/examples", "installed examples", true}};
  EXPECT_EQ(resolvePack("hpccg", PackAnchor{}, shipped), dir_ + "/shipped/examples/hpccg.json");
  try {
    resolvePack("lulesj", PackAnchor{}, shipped);
    FAIL() << "resolved an unknown name";
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown rule pack \"lulesj\": no lulesj.json in " + dir_ +
                                         "/shipped (installed), " + dir_ +
                                         "/shipped/examples (installed examples); the shipped "
                                         "packs are mpi; the examples are hpccg, lulesh; did you "
                                         "mean \"lulesh\"?");
  }
}

TEST_F(PackLookup, ExtendsByNameFindsTheShippedPack) {
  std::string ours =
      write("proj/ours.json", R"({"name": "ours", "extends": ["gridlock-legacy", "mpi"],
    "scope": {"include": ["**"], "exclude": ["third_party/**"], "edges": ["train/**"]}})");
  RulePack p = loadRulePack(ours);
  EXPECT_EQ(p.accessors.size(), 52u);  // the legacy pack's 51 and MPI_COMM_WORLD
  EXPECT_EQ(p.globals.size(), 3u);
  EXPECT_EQ(p.scope.edges, std::vector<std::string>{"train/**"});
  EXPECT_EQ(p.rewrite.thread.name, "pg_collection");  // the first base's rewrite keys
}

TEST_F(PackLookup, ExtendsByNamePrefersAPackBesideTheExtendingOne) {
  write("proj/mpi.json", onePack("my-mpi", "only_mine"));
  std::string ours = write("proj/ours.json", R"({"name": "ours", "extends": ["mpi"]})");
  RulePack p = loadRulePack(ours);
  ASSERT_EQ(p.globals.size(), 1u);
  EXPECT_EQ(p.globals[0].variable, "only_mine");
  EXPECT_TRUE(p.accessors.empty());
}

TEST_F(PackLookup, ExtendsAnUnknownNameIsAnErrorAtItsJsonPath) {
  std::string ours =
      write("proj/ours.json", R"({"name": "ours", "extends": ["mpi", "gridlock-legcy"]})");
  try {
    loadRulePack(ours);
    FAIL() << "loaded a pack extending an unknown name";
  } catch (const RuleError& e) {
    std::string what = e.what();
    std::string head = ours +
                       ": /extends/1: unknown rule pack \"gridlock-legcy\": no "
                       "gridlock-legcy.json in " +
                       dir_ + "/proj (beside the pack), ";
    EXPECT_EQ(what.substr(0, head.size()), head) << what;
    EXPECT_NE(what.find(kRules + " (source tree)"), std::string::npos) << what;
  }
}

TEST_F(PackLookup, RuleSetLoadsNamesAndPaths) {
  RuleSet set = RuleSet::load({"mpi", kRules + "/gridlock-legacy.json"});
  ASSERT_EQ(set.packs().size(), 2u);
  EXPECT_EQ(set.packs()[0].name, "mpi");
  EXPECT_TRUE(fs::equivalent(set.packs()[0].path, kRules + "/mpi.json"));
  EXPECT_EQ(set.packs()[1].name, "gridlock-legacy");
  // Beside a config: its directory is searched first.
  write("cfg/mpi.json", onePack("cfg-mpi", "v"));
  RuleSet cfg = RuleSet::load({"mpi"}, PackAnchor{dir_ + "/cfg", "beside the config"});
  ASSERT_EQ(cfg.packs().size(), 1u);
  EXPECT_EQ(cfg.packs()[0].name, "cfg-mpi");
}

TEST(RulePackSchemaKey, DollarSchemaIsAllowedAndIgnoredButMustBeAString) {
  RulePack p = parseRulePack(
      R"({"$schema": "../schema/rule-pack.schema.json", "name": "x", "globals": [{"variable": "v"}]})",
      "p.json");
  EXPECT_EQ(p.name, "x");
  try {
    parseRulePack(R"({"$schema": 7, "name": "x", "globals": [{"variable": "v"}]})", "p.json");
    FAIL() << "took a number for $schema";
  } catch (const RuleError& e) {
    EXPECT_STREQ(e.what(), "p.json: /$schema: expected a non-empty string");
  }
}

TEST(RulePackSchemaKey, TheShippedPacksReferenceThePublishedSchema) {
  for (const char* name : {"gridlock-legacy", "mpi"}) {
    std::ifstream in(kRules + "/" + name + ".json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"$schema\": \"../schema/rule-pack.schema.json\""), std::string::npos)
        << name;
  }
}

}  // namespace
}  // namespace gridlock::rules
