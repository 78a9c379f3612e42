// The C++ rewrite's re-parse proof (rewrite/cpp/reparse_check.h in the core's loop) with a scripted
// re-scan: a clean result, a TU that stops compiling because of a changed file (held back, planned
// again), a failure no changed file explains (refused), and a result that would still be edited
// (refused).
#include "rewrite/core/verify.h"
#include "rewrite/cpp/rewriter.h"
#include "rules/rule_pack.h"
#include "support/file_io.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gridlock::rewrite::cpp {
namespace {

const std::string kCode = "int f(const Coll& groups) { return ps::tp_size(); }\n";

class Verify : public ::testing::Test {
 protected:
  void SetUp() override {
    root = test::makeTempDir("verify");
    test::writeFile(root + "/m.cpp", kCode);
    inv.reads = {substitutable()};
    inv.digests["m.cpp"] = support::md5Hex(kCode);
  }
  void TearDown() override { std::filesystem::remove_all(root); }

  // `ps::tp_size()` in f, with the collection `groups` in scope.
  static facts::Read substitutable() {
    facts::Read r;
    r.file = "m.cpp";
    r.line = 1;
    r.column = 36;
    r.name = "ps::tp_size";
    r.group = "tp";
    r.yields = facts::Yields::Size;
    r.enclosing = "f";
    r.hint = {facts::Hint::Substitute, "groups.tp", true};
    r.offset = static_cast<unsigned>(kCode.find("ps::tp_size()"));
    r.length = 13;
    return r;
  }

  static index::Inventory brokenIn(const std::string& file, std::vector<std::string> files) {
    index::Inventory after;
    after.parseErrors.push_back({file, {file + ":1:1: error: no member named 'tp'"}, files});
    return after;
  }

  // The core's loop with the C++ backend alone.
  Verified verify(const Rescan& rescan) {
    Rewriters cpp;
    cpp.push_back(std::make_unique<CppRewriter>());
    return planAndVerify(inv, rules, root, rescan, cpp);
  }

  rules::RuleSet rules{{rules::parseRulePack(
      R"json({"name": "t", "rewrite": {"spell": {"size": "{g}->size()"}},
              "accessors": [{"function": "ps::tp_size", "kind": "accessor", "group": "tp",
                             "yields": "size"}]})json",
      "t.json")}};
  std::string root;
  index::Inventory inv;
};

TEST_F(Verify, ACleanResultIsProvedInOneRound) {
  int scans = 0;
  Verified v = verify([&](const auto& overlay) {
    ++scans;
    EXPECT_EQ(overlay.at(root + "/m.cpp"),
              "int f(const Coll& groups) { return groups.tp->size(); }\n");
    return index::Inventory{};  // compiles, nothing left to rewrite
  });
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(v.rounds.at(facts::Language::Cpp), 1);
  EXPECT_EQ(scans, 1);
  ASSERT_EQ(v.prepared.changes.size(), 1u);
  EXPECT_TRUE(v.held.empty());
}

TEST_F(Verify, AFileThatStopsCompilingIsHeldBackAndTheRestPlannedAgain) {
  int scans = 0;
  Verified v = verify([&](const auto&) {
    ++scans;
    return brokenIn("m.cpp", {"m.cpp"});
  });
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(scans, 1);  // the second round has nothing left to change: no re-scan
  EXPECT_EQ(v.rounds.at(facts::Language::Cpp), 2);
  EXPECT_TRUE(v.prepared.changes.empty());
  ASSERT_EQ(v.held.count("m.cpp"), 1u);
  EXPECT_EQ(v.held.at("m.cpp"), "m.cpp:1:1: error: no member named 'tp'");
  EXPECT_EQ(v.plan.verdicts[0].left, facts::Left::CompileError);
  EXPECT_EQ(v.log, (std::vector<std::string>{"the rewritten m.cpp does not compile:",
                                             "  m.cpp:1:1: error: no member named 'tp'"}));
}

TEST_F(Verify, AFailureNoChangedFileExplainsRollsEverythingBack) {
  Verified v = verify([&](const auto&) { return brokenIn("other.cpp", {"other.cpp"}); });
  EXPECT_EQ(v.error,
            "the failure is not in a file the rewrite changed alone; rewrite rolled back; "
            "nothing written");
}

TEST_F(Verify, AResultThatWouldStillBeEditedIsRefused) {
  Verified v = verify([&](const auto&) {
    index::Inventory after;
    after.reads = {substitutable()};  // as if the edit had not removed the read
    return after;
  });
  EXPECT_EQ(v.error,
            "internal: a second pass would still edit 1 place(s), first m.cpp:1:36 substitute; "
            "nothing written");
}

// Every round breaks a TU in another changed file: each round holds one more back, until the
// bound refuses the whole rewrite.
TEST_F(Verify, TheRoundsAreBounded) {
  const int files = kMaxVerifyRounds + 4;
  inv.reads.clear();
  for (int i = 0; i < files; ++i) {
    std::string name = "f" + std::to_string(10 + i) + ".cpp";
    test::writeFile(root + "/" + name, kCode);
    facts::Read r = substitutable();
    r.file = name;
    inv.reads.push_back(r);
    inv.digests[name] = support::md5Hex(kCode);
  }
  Verified v = verify([&](const auto& overlay) {
    std::string first = overlay.begin()->first.substr(root.size() + 1);
    return brokenIn(first, {first});
  });
  EXPECT_EQ(v.rounds.at(facts::Language::Cpp), kMaxVerifyRounds + 1);
  EXPECT_EQ(v.held.size(), static_cast<size_t>(kMaxVerifyRounds + 1));
  EXPECT_EQ(v.error,
            "the failure is not in a file the rewrite changed alone; rewrite rolled back; "
            "nothing written");
}

}  // namespace
}  // namespace gridlock::rewrite::cpp
