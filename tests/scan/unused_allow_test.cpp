// An allow that covers no read is reported, as ruff's RUF100 reports an unused noqa
// (docs/suppressions.md): in a file with reads, and in a header whose reads are gone; a
// header's allow that a read of another unit falls under is used. A run over some files only
// judges the allows of its units' own files.
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

const std::string kUnused =
    "unused allow: it covers no read; remove it [gridlock-unused-suppression]";

// b.cpp: line 2's allow covers its read, line 3's (alone: lines 3 and 4) covers none; quiet.h,
// which b.cpp includes, holds an allow and no read; shared.h's allow covers a.cpp's read there.
void writeAllows(const SmallProject& p) {
  p.write("core/b.cpp",
          "#include \"../ps.h\"\n"
          "void b_one() { ps::get_dp(); }  // gridlock: allow(logs the dp layout)\n"
          "// gridlock: allow(tp: a read that moved away)\n"
          "void b_two() {}\n"
          "#include \"quiet.h\"\n");
  p.write("core/quiet.h",
          "#pragma once\n"
          "// gridlock: allow-file(nothing here reads any more)\n");
  p.write("core/shared.h",
          "#pragma once\n"
          "#include \"../ps.h\"\n"
          "// gridlock: allow-next-line(the shared read)\n"
          "inline void shared() { ps::get_dp(); }\n");
}

TEST(UnusedAllow, CppAllowsThatCoverNoReadAreWarnings) {
  SmallProject p("unused-allow");
  writeAllows(p);
  CommandResult text = p.runIn(".", "scan -q --no-cache");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("src/core/b.cpp:3:1: warning: " + kUnused +
                          "\n"
                          "src/core/quiet.h:2:1: warning: " +
                          kUnused + "\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("shared.h:3"), std::string::npos) << text.out;

  CommandResult json = p.runIn(".", "scan -q --no-cache --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["summary"]["unused_suppressions"], 2);
  EXPECT_EQ(j["unused_suppressions"], nlohmann::json::parse(R"js([
    {"file": "src/core/b.cpp", "line": 3, "column": 1,
     "text": "// gridlock: allow(tp: a read that moved away)"},
    {"file": "src/core/quiet.h", "line": 2, "column": 1,
     "text": "// gridlock: allow-file(nothing here reads any more)"}])js"));
  // Both allowed reads are allowed still: 3 of the 5 reads counted.
  EXPECT_EQ(j["summary"]["suppressed"], 2);
  EXPECT_EQ(j["summary"]["total"], 3);

  // b.cpp alone: its own allow is judged, not the header's (another unit may read there).
  CommandResult one = p.runIn(".", "scan -q --no-cache --format json src/core/b.cpp");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)["unused_suppressions"], nlohmann::json::parse(R"js([
    {"file": "src/core/b.cpp", "line": 3, "column": 1,
     "text": "// gridlock: allow(tp: a read that moved away)"}])js"));
}

}  // namespace
}  // namespace gridlock::test
