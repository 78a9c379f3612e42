// A pack's parameter type spelled relative to the namespace of the declaration it goes into.
#include "rewrite/cpp/type_spelling.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite::cpp {
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

// InfiniTrain's checkpoint_manager.cc: `namespace nn = infini_train::nn;` at file scope.
TEST(TypeSpelling, AliasesInScopeSpellAsTheFileDoes) {
  const Aliases nn{{"nn", "infini_train::nn"}};
  EXPECT_EQ(typeSpellingIn("const infini_train::nn::parallel::global::GlobalEnv &", "", nn),
            "const nn::parallel::global::GlobalEnv &");
  // As many components as the plain spelling: still the file's alias.
  EXPECT_EQ(typeSpellingIn("const gridlock::Env&", "", {{"gl", "gridlock"}}), "const gl::Env&");
  // Fewer through the enclosing namespace: that stays.
  EXPECT_EQ(typeSpellingIn("const infini_train::nn::parallel::GlobalEnv&", "infini_train::nn", nn),
            "const parallel::GlobalEnv&");
  // The closest alias wins; one for another namespace is no use.
  EXPECT_EQ(typeSpellingIn("a::b::c::T*", "", {{"x", "a"}, {"y", "a::b::c"}, {"z", "q"}}), "y::T*");
  EXPECT_EQ(typeSpellingIn("a::b::T*", "", {{"ab2", "a::b2"}, {"b", "a::b2::b"}}), "a::b::T*");
  // A name written from the global namespace keeps its spelling.
  EXPECT_EQ(typeSpellingIn("const ::gridlock::Env&", "", {{"gl", "gridlock"}}),
            "const ::gridlock::Env&");
  // Template arguments go through it too.
  EXPECT_EQ(typeSpellingIn("std::shared_ptr<gridlock::Group>", "", {{"gl", "gridlock"}}),
            "std::shared_ptr<gl::Group>");
}

// InfiniTrain's tests and examples: `using namespace infini_train;` at file scope.
TEST(TypeSpelling, UsingDirectivesDropTheirNamespace) {
  const Aliases it{{"", "infini_train"}};
  EXPECT_EQ(typeSpellingIn("const infini_train::nn::parallel::global::GlobalEnv &", "", it),
            "const nn::parallel::global::GlobalEnv &");
  // An expression (an edge) goes through it the same way.
  EXPECT_EQ(typeSpellingIn("infini_train::nn::GlobalEnv::Instance()", "", it),
            "nn::GlobalEnv::Instance()");
  // The directive for the type's own namespace leaves the bare name.
  EXPECT_EQ(typeSpellingIn("const a::b::T&", "", {{"", "a::b"}}), "const T&");
  // Whichever of it and the enclosing namespace drops more.
  EXPECT_EQ(typeSpellingIn("a::b::T*", "a", {{"", "a::b"}}), "T*");
  EXPECT_EQ(typeSpellingIn("a::b::c::T*", "a", {{"", "a::b"}}), "c::T*");
  EXPECT_EQ(typeSpellingIn("a::b::c::T*", "a", {{"", "a"}}), "b::c::T*");
  // A directive for another namespace, or one the name only starts like, is no use.
  EXPECT_EQ(typeSpellingIn("a::b::T*", "", {{"", "q"}, {"", "a::b2"}}), "a::b::T*");
  // A name written from the global namespace keeps its spelling.
  EXPECT_EQ(typeSpellingIn("const ::a::b::T&", "", {{"", "a::b"}}), "const ::a::b::T&");
}

// `using a::b::T;`: T names the type, and a name inside it starts from T.
TEST(TypeSpelling, UsingDeclarationsNameTheirEntity) {
  EXPECT_EQ(typeSpellingIn("const a::b::T&", "", {{"T", "a::b::T"}}), "const T&");
  EXPECT_EQ(typeSpellingIn("a::b::T::Instance()", "", {{"T", "a::b::T"}}), "T::Instance()");
  EXPECT_EQ(typeSpellingIn("a::b::U*", "", {{"T", "a::b::T"}}), "a::b::U*");
  EXPECT_EQ(typeSpellingIn("a::b::TT*", "", {{"T", "a::b::T"}}), "a::b::TT*");
}

TEST(TypeSpelling, EnclosingNamespaceOfFunctionsAndMembers) {
  EXPECT_EQ(enclosingNamespace("a::b::f", ""), "a::b");
  EXPECT_EQ(enclosingNamespace("f", ""), "");
  EXPECT_EQ(enclosingNamespace("a::Linear::Forward", "a::Linear"), "a::Linear");
  EXPECT_EQ(enclosingNamespace("a::Box<int>::get", "a::Box<int>"), "a::Box");
}

}  // namespace
}  // namespace gridlock::rewrite::cpp
