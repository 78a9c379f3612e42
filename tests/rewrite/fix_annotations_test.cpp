// The CHECK-FIXES / CHECK-LEFT / CHECK-INCLUDE annotations the golden cases are written in:
// what each form means, and that a malformed one is an error rather than a silent pass.
#include "rewrite/fix_annotations.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

TEST(FixAnnotations, ALineBecomesWhatItsAnnotationsSay) {
  const std::string input =
      "#include \"a.h\"\n"
      "// CHECK-INCLUDE: #include \"b.h\" AFTER #include \"a.h\"\n"
      "int f() {\n"
      "  return g();\n"
      "  // CHECK-FIXES: int x = 1;\n"
      "  // CHECK-FIXES:   return x;\n"
      "}\n";
  EXPECT_EQ(expectedOutput(input),
            "#include \"a.h\"\n"
            "#include \"b.h\"\n"
            "// CHECK-INCLUDE: #include \"b.h\" AFTER #include \"a.h\"\n"
            "int f() {\n"
            "  int x = 1;\n"
            "    return x;\n"
            "  // CHECK-FIXES: int x = 1;\n"
            "  // CHECK-FIXES:   return x;\n"
            "}\n");
}

TEST(FixAnnotations, AnnotationsAfterAStatementReplaceALineAboveIt) {
  EXPECT_EQ(expectedOutput("a(x,\n  y);\n// CHECK-FIXES@-2: a(z,\n"),
            "a(z,\n  y);\n// CHECK-FIXES@-2: a(z,\n");
}

TEST(FixAnnotations, ABareAnnotationIsAnEmptyLine) {
  EXPECT_EQ(expectedOutput("#pragma once\nnamespace a {\n// CHECK-FIXES: #include \"b.h\"\n"
                           "// CHECK-FIXES:\n// CHECK-FIXES: namespace a {\n"),
            "#pragma once\n#include \"b.h\"\n\nnamespace a {\n// CHECK-FIXES: #include \"b.h\"\n"
            "// CHECK-FIXES:\n// CHECK-FIXES: namespace a {\n");
}

TEST(FixAnnotations, MalformedAnnotationsAreErrors) {
  EXPECT_THROW(expectedOutput("// CHECK-FIXES: x\n"), std::runtime_error);    // nothing above
  EXPECT_THROW(expectedOutput("x\n// CHECK-FIXES x\n"), std::runtime_error);  // no ': '
  EXPECT_THROW(expectedOutput("x\n// CHECK-INCLUDE: #include \"y.h\" NEAR x\n"),
               std::runtime_error);
  EXPECT_THROW(expectedOutput("x\n// CHECK-INCLUDE: #include \"y.h\" AFTER z\n"),
               std::runtime_error);  // no such anchor
  EXPECT_THROW(expectedLeft("f();  // CHECK-LEFT macro\n"), std::runtime_error);
}

TEST(FixAnnotations, LeftReadsByLine) {
  auto left = expectedLeft(
      "a();  // CHECK-LEFT: macro lambda\n"
      "int f() {  // CHECK-LEFT@+1: public_api\n"
      "// CHECK-FIXES: b();  // CHECK-LEFT: none\n");
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[1], (std::multiset<std::string>{"lambda", "macro"}));
  EXPECT_EQ(left[3], (std::multiset<std::string>{"public_api"}));
}

}  // namespace
}  // namespace gridlock::test
