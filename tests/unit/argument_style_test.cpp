// Thread's inserted argument written in the style of the call it goes into.
#include "rewrite/cpp/argument_style.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite::cpp {
namespace {

// An insertion of `env` before the argument that starts at `marker` in `source`.
std::string styled(const std::string& source, const std::string& marker,
                   const std::string& argument = "env") {
  Edit e{"f.cc",
         static_cast<unsigned>(source.find(marker)),
         0,
         "env, ",
         facts::Strategy::Thread,
         "f.cc:1:1 argument",
         argument};
  return styledArgument(source, e);
}

TEST(ArgumentStyle, NamedWhereTheNextArgumentIsNamed) {
  EXPECT_EQ(styled("f(a, /*seq=*/s);", "/*seq"), "/*env=*/env, ");
  EXPECT_EQ(styled("f(a, /* seq = */ s);", "/* seq"), "/*env=*/env, ");
  // A comment that names nothing, or no comment: unnamed.
  EXPECT_EQ(styled("f(a, /*fast*/ s);", "/*fast"), "env, ");
  EXPECT_EQ(styled("f(a, s);", "s)"), "env, ");
}

TEST(ArgumentStyle, OnItsOwnLineWhereTheNextArgumentStartsOne) {
  EXPECT_EQ(styled("f(a,\n      /*seq=*/s);", "/*seq"), "/*env=*/env,\n      ");
  EXPECT_EQ(styled("f(a,\r\n\ts);", "s)"), "env,\n\t");  // the \r comes back when written
  // Sharing its line with the one before: stays on it.
  EXPECT_EQ(styled("f(a,\n  b, s);", "s)"), "env, ");
}

TEST(ArgumentStyle, OtherEditsAreUntouched) {
  // Not Thread's argument, an argument at the end (", env"), or a replacement.
  EXPECT_EQ(styled("f(a, /*seq=*/s);", "/*seq", ""), "env, ");
  Edit atEnd{"f.cc", 3, 0, ", env", facts::Strategy::Thread, "f.cc:1:1 argument", "env"};
  EXPECT_EQ(styledArgument("f(a)", atEnd), ", env");
  Edit replacing{"f.cc", 2, 1, "env, ", facts::Strategy::Thread, "f.cc:1:1 argument", "env"};
  EXPECT_EQ(styledArgument("f(/*x=*/a)", replacing), "env, ");
}

}  // namespace
}  // namespace gridlock::rewrite::cpp
