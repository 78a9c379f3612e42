// The verification on Megatron-LM, when a checkout is at hand: GRIDLOCK_MEGATRON_LM names one
// at commit bf71c142b5b563af7348b55a692450869f47d734 (without it the tests are skipped; the
// sources stay outside this repository; scripts/megatron-check.sh unpacks one). pyright finds
// thousands of diagnostics of the compared kinds in megatron/core before any change (torch's
// own stubs, inference contexts typed by their base class): the comparison must take a change
// that moves them all down two lines as nothing new, and still see the one error a wrong
// substitution makes. Only megatron/core/transformer is checked, to keep each run near a minute.
#include "rewrite/python/checks/verify.h"
#include "support/file_io.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace gridlock::rewrite::py::checks {
namespace {

constexpr const char* kFile = "megatron/core/transformer/attention.py";
// SelfAttention.run_realtime_tests, line 1796 at bf71c142; `self` has a pg_collection,
// the method no parameter of that name.
constexpr const char* kRead = "group=get_tensor_model_parallel_group())";

class MegatronVerify : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* root = std::getenv("GRIDLOCK_MEGATRON_LM");
    if (!root || !*root) GTEST_SKIP() << "GRIDLOCK_MEGATRON_LM names no Megatron-LM checkout";
    root_ = root;
    auto text = support::readFile(root_ + "/" + kFile);
    ASSERT_TRUE(text) << kFile;
    before_ = *text;
    ASSERT_NE(before_.find(kRead), std::string::npos);
  }

  // Two comment lines on top (every diagnostic moves down two lines), and kRead as `group`.
  Result verifyWith(const std::string& group) {
    std::string after = "# a\n# b\n" + before_;
    after.replace(after.find(kRead), std::string(kRead).size(), group);
    Request req{root_, {{kFile, before_, after}}, {"megatron/core/transformer"}};
    return verifyChange(req);
  }

  std::string root_;
  std::string before_;
};

TEST_F(MegatronVerify, AShiftedFileWithAGoodSubstitutionHasNothingNew) {
  Result r = verifyWith("group=self.pg_collection.tp)");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_TRUE(r.failures.empty()) << testing::PrintToString(describe(r));
  EXPECT_GT(r.diagnosticsBefore, 100);
  EXPECT_EQ(r.diagnosticsAfter, r.diagnosticsBefore);
}

TEST_F(MegatronVerify, AWrongSubstitutionIsTheOneNewDiagnostic) {
  Result r = verifyWith("group=pg_collection.tp)");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(describe(r), (std::vector<std::string>{
                             "megatron/core/transformer/attention.py:1798:61: undefined-name: "
                             "\"pg_collection\" is not defined [reportUndefinedVariable] [new]"}));
  EXPECT_EQ(r.diagnosticsAfter, r.diagnosticsBefore + 1);
}

}  // namespace
}  // namespace gridlock::rewrite::py::checks
