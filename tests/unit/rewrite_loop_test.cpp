// The core's verify loop (rewrite/core/verify.h) on fake backends (unit/rewrite_fake_backend.h)
// with scripted checks and re-scans: what each outcome of a check does to the rounds, the
// bound on them, idempotence, and how backends are run and merged.
#include "rewrite/core/verify.h"
#include "unit/rewrite_fake_backend.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite {
namespace {

using facts::Language;
using Outcome = Check::Outcome;

// A check that does what its test says, and counts its runs.
class ScriptedCheck : public Check {
 public:
  explicit ScriptedCheck(std::function<Outcome(Round&)> body, bool onlyWhenNothingHeld = false)
      : body_(std::move(body)), onlyWhenNothingHeld_(onlyWhenNothingHeld) {}
  std::string_view id() const override { return "scripted"; }
  bool onlyWhenNothingHeld() const override { return onlyWhenNothingHeld_; }
  Outcome run(Round& round) override {
    ++runs;
    return body_(round);
  }
  int runs = 0;

 private:
  std::function<Outcome(Round&)> body_;
  bool onlyWhenNothingHeld_;
};

facts::Read read(Language language, const std::string& file) {
  facts::Read r;
  r.language = language;
  r.file = file;
  r.line = 1;
  r.column = 1;
  r.kind = facts::ReadKind::Accessor;
  return r;
}

// Every open read substituted by an edit writing "x" into its file.
void substituteAll(PlanState& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s.open(i)) {
      s.apply(i, facts::Strategy::Substitute, "");
      s.edit({s.read(i).file, 0, 0, "x", facts::Strategy::Substitute, s.read(i).file + " x"});
      ++s.tally(facts::Strategy::Substitute).reads;
    }
}

class Loop : public ::testing::Test {
 protected:
  void SetUp() override {
    inv.reads = {read(Language::Python, "a.py"), read(Language::Python, "b.py")};
  }
  // The verified result of `backends`, re-scans counted; a re-scan finds no read left unless
  // the test says otherwise.
  Verified verify(Rewriters& backends) {
    return planAndVerify(
        inv, rules, "/nowhere",
        [&](const std::map<std::string, std::string>&) {
          ++rescans;
          return after;
        },
        backends);
  }
  Verified verify(std::unique_ptr<test::FakeBackend> backend) {
    Rewriters one;
    one.push_back(std::move(backend));
    return verify(one);
  }
  std::unique_ptr<test::FakeBackend> python(std::vector<Check*> checks) {
    auto b = std::make_unique<test::FakeBackend>(Language::Python, substituteAll);
    b->checks_ = std::move(checks);
    return b;
  }

  index::Inventory inv, after;
  rules::RuleSet rules;
  int rescans = 0;
};

std::vector<std::string> files(const apply::Prepared& p) {
  std::vector<std::string> out;
  for (const auto& c : p.changes) out.push_back(c.file);
  return out;
}

TEST_F(Loop, AFileHeldIsPlannedAgainWithoutItThenPasses) {
  ScriptedCheck hold([](Round& r) {
    if (r.number == 1) {
      r.held["a.py"] = "bad";
      r.log.push_back("held a.py");
    }
    return Outcome::Pass;
  });
  Verified v = verify(python({&hold}));
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(v.rounds.at(Language::Python), 2);
  EXPECT_EQ(hold.runs, 2);
  EXPECT_EQ(rescans, 1);  // the idempotence plan of round 2; the check itself asked for none
  EXPECT_EQ(files(v.prepared), (std::vector<std::string>{"b.py"}));
  EXPECT_EQ(v.held, (HeldFiles{{"a.py", "bad"}}));
  EXPECT_EQ(v.plan.verdicts[0].left, facts::Left::CompileError);
  EXPECT_EQ(v.plan.verdicts[0].detail, "held a.py: bad");
  EXPECT_EQ(v.plan.verdicts[1].applied, facts::Strategy::Substitute);
  EXPECT_EQ(v.log, (std::vector<std::string>{"held a.py"}));
}

TEST_F(Loop, NextRoundSkipsTheChecksAfterItAndTheBound) {
  for (int i = 0; i < kMaxVerifyRounds + 4; ++i)
    inv.reads.push_back(read(Language::Python, "f" + std::to_string(10 + i) + ".py"));
  // NextRound holds one more file each round, past the bound on rounds that hold files.
  ScriptedCheck next([](Round& r) {
    if (r.number > kMaxVerifyRounds + 2) return Outcome::Pass;
    r.held[r.prepared.changes[0].file] = "no";
    return Outcome::NextRound;
  });
  ScriptedCheck later([](Round&) { return Outcome::Pass; });
  Verified v = verify(python({&next, &later}));
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(v.rounds.at(Language::Python), kMaxVerifyRounds + 3);
  EXPECT_EQ(v.held.size(), static_cast<size_t>(kMaxVerifyRounds + 2));
  EXPECT_EQ(later.runs, 1);  // in the last round only
  EXPECT_EQ(rescans, 1);     // NextRound rounds re-scan nothing
}

TEST_F(Loop, RefuseEndsEveryBackend) {
  ScriptedCheck refuse([](Round& r) {
    r.error = "refused in round " + std::to_string(r.number);
    return Outcome::Refuse;
  });
  inv.reads.push_back(read(Language::Cpp, "c.cpp"));
  Rewriters both;
  both.push_back(python({&refuse}));
  auto cpp = std::make_unique<test::FakeBackend>(Language::Cpp, substituteAll);
  test::FakeBackend* cppSeen = cpp.get();
  both.push_back(std::move(cpp));
  Verified v = verify(both);
  EXPECT_EQ(v.error, "refused in round 1");
  EXPECT_EQ(cppSeen->starts, 0);
  EXPECT_EQ(v.rounds.count(Language::Cpp), 0u);
}

TEST_F(Loop, ReplanStartsAnotherRoundThoughNothingWasHeld) {
  ScriptedCheck replan([](Round& r) {
    r.replan = r.number == 1;
    return Outcome::Pass;
  });
  Verified v = verify(python({&replan}));
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(v.rounds.at(Language::Python), 2);
  EXPECT_TRUE(v.held.empty());
}

TEST_F(Loop, FilesStillHeldAfterTheLastRoundRefuse) {
  for (int i = 0; i < kMaxVerifyRounds + 4; ++i)
    inv.reads.push_back(read(Language::Python, "f" + std::to_string(10 + i) + ".py"));
  // Each round holds one more file back.
  ScriptedCheck hold([](Round& r) {
    r.held[r.prepared.changes[0].file] = "still";
    return Outcome::Pass;
  });
  Verified v = verify(python({&hold}));
  EXPECT_EQ(v.rounds.at(Language::Python), kMaxVerifyRounds + 1);
  EXPECT_EQ(v.held.size(), static_cast<size_t>(kMaxVerifyRounds + 1));
  EXPECT_EQ(v.error, "too many rounds");
}

TEST_F(Loop, APlanOfTheResultThatStillEditsIsRefused) {
  after = inv;  // the re-scan finds every read again
  ScriptedCheck rescan([](Round& r) {
    EXPECT_EQ(r.after().reads.size(), 2u);
    return Outcome::Pass;
  });
  Verified v = verify(python({&rescan}));
  EXPECT_EQ(rescans, 1);  // made once, for the check and the idempotence plan alike
  EXPECT_EQ(v.error, "not idempotent: 2 edit(s)");
}

TEST_F(Loop, ACheckForCleanRoundsIsSkippedOnceAFileIsHeld) {
  ScriptedCheck hold([](Round& r) {
    if (r.number == 1) r.held["a.py"] = "bad";
    return Outcome::Pass;
  });
  ScriptedCheck clean([](Round&) { return Outcome::Pass; }, true);
  Verified v = verify(python({&hold, &clean}));
  EXPECT_EQ(v.rounds.at(Language::Python), 2);
  EXPECT_EQ(clean.runs, 1);  // round 2 only
}

TEST_F(Loop, ABackendOwningNoReadIsSkipped) {
  auto cpp = std::make_unique<test::FakeBackend>(Language::Cpp, substituteAll);
  test::FakeBackend* cppSeen = cpp.get();
  Rewriters both;
  both.push_back(std::move(cpp));
  both.push_back(python({}));
  Verified v = verify(both);
  EXPECT_EQ(cppSeen->starts, 0);
  EXPECT_EQ(v.rounds.count(Language::Cpp), 0u);
  EXPECT_EQ(v.rounds.at(Language::Python), 1);
  EXPECT_EQ(files(v.prepared), (std::vector<std::string>{"a.py", "b.py"}));
}

TEST_F(Loop, ABackendThatCannotVerifyRefusesBeforeAnyPlans) {
  inv.reads.push_back(read(Language::Cpp, "c.cpp"));
  ScriptedCheck never([](Round&) { return Outcome::Pass; });
  auto cpp = std::make_unique<test::FakeBackend>(Language::Cpp, substituteAll);
  cpp->checks_ = {&never};
  auto py = python({&never});
  py->cannotVerify_ = "no checker; nothing written";
  test::FakeBackend* cppSeen = cpp.get();
  test::FakeBackend* pySeen = py.get();
  Rewriters both;
  both.push_back(std::move(cpp));  // first, and able to verify: still not planned
  both.push_back(std::move(py));
  Verified v = verify(both);
  EXPECT_EQ(v.error, "no checker; nothing written");
  EXPECT_EQ(cppSeen->starts, 0);
  EXPECT_EQ(pySeen->starts, 0);
  EXPECT_EQ(never.runs, 0);
  EXPECT_EQ(rescans, 0);
  EXPECT_TRUE(v.rounds.empty());
  EXPECT_TRUE(v.prepared.changes.empty());
}

TEST_F(Loop, ABackendOwningNoReadNeedNotBeAbleToVerify) {
  auto cpp = std::make_unique<test::FakeBackend>(Language::Cpp, substituteAll);
  cpp->cannotVerify_ = "no compiler";
  Rewriters both;
  both.push_back(std::move(cpp));
  both.push_back(python({}));
  Verified v = verify(both);
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(v.rounds, (std::map<Language, int>{{Language::Python, 1}}));
  EXPECT_EQ(files(v.prepared), (std::vector<std::string>{"a.py", "b.py"}));
}

TEST_F(Loop, AReadNoBackendOwnsIsAnInternalError) {
  inv.reads.push_back(read(Language::Cpp, "c.cpp"));
  auto py = python({});
  test::FakeBackend* pySeen = py.get();
  Rewriters one;
  one.push_back(std::move(py));
  try {
    verify(one);
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "internal: no rewrite backend owns the read at c.cpp:1:1");
  }
  EXPECT_EQ(pySeen->starts, 0);
}

TEST_F(Loop, TwoBackendsMergeInOrder) {
  inv.reads = {read(Language::Python, "z.py"), read(Language::Cpp, "c.cpp"),
               read(Language::Python, "a.py")};
  ScriptedCheck cppCheck([](Round& r) {
    r.log.push_back("cpp round " + std::to_string(r.number));
    r.warnings.push_back("cpp warning");
    if (r.number == 1) r.held["c.cpp"] = "cpp held";
    return Outcome::Pass;
  });
  ScriptedCheck pyCheck([](Round& r) {
    r.log.push_back("py round " + std::to_string(r.number));
    r.warnings.push_back("py warning");
    return Outcome::Pass;
  });
  Rewriters both;
  auto cpp = std::make_unique<test::FakeBackend>(Language::Cpp, substituteAll);
  cpp->checks_ = {&cppCheck};
  both.push_back(std::move(cpp));
  both.push_back(python({&pyCheck}));
  Verified v = verify(both);
  EXPECT_EQ(v.error, "");
  EXPECT_EQ(v.rounds, (std::map<Language, int>{{Language::Cpp, 2}, {Language::Python, 1}}));
  // C++'s second round has nothing to do: its check runs once.
  EXPECT_EQ(v.log, (std::vector<std::string>{"cpp round 1", "py round 1"}));
  EXPECT_EQ(v.warnings, (std::vector<std::string>{"cpp warning", "py warning"}));
  EXPECT_EQ(v.held, (HeldFiles{{"c.cpp", "cpp held"}}));
  EXPECT_EQ(files(v.prepared), (std::vector<std::string>{"a.py", "z.py"}));
  EXPECT_EQ(v.plan.verdicts[0].applied, facts::Strategy::Substitute);
  EXPECT_EQ(v.plan.verdicts[1].left, facts::Left::CompileError);
  EXPECT_EQ(v.plan.verdicts[1].detail, "held c.cpp: cpp held");
  EXPECT_EQ(v.plan.verdicts[2].applied, facts::Strategy::Substitute);
  EXPECT_EQ(v.plan.tally(facts::Strategy::Substitute).reads, 2u);
}

}  // namespace
}  // namespace gridlock::rewrite
