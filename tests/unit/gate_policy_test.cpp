// The gate's policy (analysis/gate_policy.h) on hand-made runs: which baseline keys a run's
// counts speak for, why a key that seems to have fallen keeps its count, and which deleted
// files lie under the root.
#include "analysis/gate_policy.h"
#include "rules/rule_pack.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gridlock::analysis {
namespace {

namespace fs = std::filesystem;

rules::RuleSet packOfGlobalV() {
  return rules::RuleSet({rules::parseRulePack(
      R"({"name": "p", "scope": {"include": ["**"]}, "globals": [{"variable": "v"}]})", "p.json")});
}

BaselineKey key(const std::string& file, const std::string& name) {
  BaselineKey k;
  k.file = file;
  k.enclosing = "f";
  k.name = name;
  return k;
}

// A root holding kept.cpp (on disk, not scanned); gone.cpp is not on disk.
struct Tree {
  std::string root;
  Tree() {
    root = (fs::temp_directory_path() / ("gate-policy-" + std::to_string(::getpid()))).string();
    fs::create_directories(root);
    std::ofstream(root + "/kept.cpp") << "int x;\n";
  }
  ~Tree() { fs::remove_all(root); }
};

index::Inventory scanned() {
  index::Inventory inv;
  inv.filesComplete = {"a.cpp"};
  inv.filesSeen = {"a.cpp", "broken.cpp"};  // broken.cpp: in the chain of a parse error
  return inv;
}

TEST(GatePolicy, AFullRunCoversWholeFilesAndFilesGoneFromTheTree) {
  Tree t;
  index::Inventory inv = scanned();
  rules::RuleSet rules = packOfGlobalV();
  GatedRun run{inv, rules, t.root, /*subset=*/false};
  Covers covers = coverage(run, {});
  EXPECT_TRUE(covers(key("a.cpp", "v")));
  EXPECT_TRUE(covers(key("a.cpp", "helper")));  // a laundered key: the whole program was read
  EXPECT_FALSE(covers(key("broken.cpp", "v")));
  EXPECT_TRUE(covers(key("gone.cpp", "v")));
  EXPECT_FALSE(covers(key("kept.cpp", "v")));
  EXPECT_EQ(keptBecause(run, key("a.cpp", "helper")),
            "laundered reads depend on the whole program: run gate without files");
  EXPECT_EQ(keptBecause(run, key("broken.cpp", "v")), "its file failed to parse in this run");
  EXPECT_EQ(keptBecause(run, key("kept.cpp", "v")), "not scanned by this run");
}

TEST(GatePolicy, ARunOverSomeFilesCoversRuleKeysOfItsFilesAndWhatItsDiffDeletes) {
  Tree t;
  index::Inventory inv = scanned();
  rules::RuleSet rules = packOfGlobalV();
  GatedRun run{inv, rules, t.root, /*subset=*/true};
  Covers covers = coverage(run, {"gone.cpp"});
  EXPECT_TRUE(covers(key("a.cpp", "v")));
  EXPECT_FALSE(covers(key("a.cpp", "helper")));  // depends on helpers anywhere
  EXPECT_FALSE(covers(key("broken.cpp", "v")));
  EXPECT_TRUE(covers(key("gone.cpp", "v")));
  EXPECT_FALSE(covers(key("also_gone.cpp", "v")));  // not on disk, but the diff did not delete it
  EXPECT_FALSE(covers(key("kept.cpp", "v")));
  EXPECT_EQ(keptBecause(run, key("kept.cpp", "v")), "");  // outside the run: only counted
}

TEST(GatePolicy, DeletedUnderRootAreRootRelative) {
  EXPECT_EQ(deletedUnderRoot({"/r/a.cpp", "/r/sub/b.h", "/other/c.cpp", "/r", "/rx/d.cpp"}, "/r"),
            (std::set<std::string>{"a.cpp", "sub/b.h"}));
  EXPECT_EQ(deletedUnderRoot({"/x/y.cpp"}, "/"), (std::set<std::string>{"x/y.cpp"}));
}

}  // namespace
}  // namespace gridlock::analysis
