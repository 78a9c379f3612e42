// A pack's parameter type spelled relative to the namespace of the declaration it goes into.
#include "rewrite/type_spelling.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite {
namespace {

TEST(TypeSpelling, SharedLeadingNamespacesAreDropped) {
  EXPECT_EQ(
      relativeTypeSpelling("const infini_train::nn::parallel::GlobalEnv&", "infini_train::nn"),
      "const parallel::GlobalEnv&");
  EXPECT_EQ(relativeTypeSpelling("const gridlock::ProcessGroupCollection&", "gridlock"),
            "const ProcessGroupCollection&");
  EXPECT_EQ(relativeTypeSpelling("const gridlock::ProcessGroupCollection&", "gridlock::model"),
            "const ProcessGroupCollection&");
  // Template arguments are names too.
  EXPECT_EQ(relativeTypeSpelling("std::shared_ptr<gridlock::ProcessGroup>", "gridlock::demo"),
            "std::shared_ptr<ProcessGroup>");
}

TEST(TypeSpelling, UnrelatedGlobalAndUnqualifiedNamesStay) {
  EXPECT_EQ(relativeTypeSpelling("const gridlock::ProcessGroupCollection&", "demo"),
            "const gridlock::ProcessGroupCollection&");
  EXPECT_EQ(relativeTypeSpelling("const gridlock::ProcessGroupCollection&", ""),
            "const gridlock::ProcessGroupCollection&");
  EXPECT_EQ(relativeTypeSpelling("MPI_Comm", "gridlock"), "MPI_Comm");
  EXPECT_EQ(relativeTypeSpelling("const ::gridlock::Env&", "gridlock"), "const ::gridlock::Env&");
  // A namespace that only starts like one in scope is another namespace.
  EXPECT_EQ(relativeTypeSpelling("gridlock2::Env*", "gridlock"), "gridlock2::Env*");
  // Anonymous namespaces in scope are transparent.
  EXPECT_EQ(relativeTypeSpelling("a::b::T*", "a::(anonymous namespace)::b"), "T*");
}

TEST(TypeSpelling, EnclosingNamespaceOfFunctionsAndMembers) {
  EXPECT_EQ(enclosingNamespace("a::b::f", ""), "a::b");
  EXPECT_EQ(enclosingNamespace("f", ""), "");
  EXPECT_EQ(enclosingNamespace("a::Linear::Forward", "a::Linear"), "a::Linear");
  EXPECT_EQ(enclosingNamespace("a::Box<int>::get", "a::Box<int>"), "a::Box");
}

}  // namespace
}  // namespace gridlock::rewrite
