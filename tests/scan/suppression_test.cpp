// Each suppression form on code Clang parses: which reads each allow covers, with exact counts.
// (docs/suppressions.md)
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

namespace gridlock::test {
namespace {

TEST(SuppressionForms, EachFormCoversWhatItShould) {
  SmallProject p("allow-forms");
  p.write("core/allow.cpp",
          "#include \"../ps.h\"\n"                                               // 1
          "void f(ps::Group*, ps::Group*);\n"                                    // 2
          "void same() { ps::get_tp(); }  // gridlock: allow(same line)\n"       // 3
          "// gridlock: allow(line above)\n"                                     // 4
          "void above() { ps::get_tp(); }\n"                                     // 5
          "void next() {  // gridlock: allow-next-line(next line)\n"             // 6
          "  ps::get_tp();\n"                                                    // 7
          "  ps::get_tp();\n"                                                    // 8
          "}\n"                                                                  // 9
          "// gridlock: allow-begin(block)\n"                                    // 10
          "void block() {\n"                                                     // 11
          "  ps::get_tp();\n"                                                    // 12
          "  ps::get_dp();\n"                                                    // 13
          "}\n"                                                                  // 14
          "// gridlock: allow-end\n"                                             // 15
          "void named() {\n"                                                     // 16
          "  f(ps::get_tp(), ps::get_dp());  // gridlock: allow(tp: only tp)\n"  // 17
          "  /* gridlock: allow(get_dp: a block comment) */ f(ps::get_tp(), ps::get_dp());\n"
          "}\n"                                                                 // 19
          "void spanning() {\n"                                                 // 20
          "  // gridlock: allow(a call over two lines)\n"                       // 21
          "  f(nullptr,\n"                                                      // 22
          "    ps::get_tp());\n"                                                // 23
          "  f(nullptr,\n"                                                      // 24
          "    ps::get_dp());\n"                                                // 25
          "}\n"                                                                 // 26
          "void unknown() { ps::get_tp(); }  // gridlock: allow(pt: a typo)\n"  // 27
          "const char* s = \"// gridlock: allow(a string)\"; void str() { ps::get_tp(); }\n");
  p.write("core/whole.cpp",
          "// gridlock: allow-file(dp: this file's dp reads are deliberate)\n"
          "#include \"../ps.h\"\n"
          "void w() { ps::get_dp(); ps::get_tp(); }\n");
  p.database(p.entry("core/a.cpp") + "," + p.entry("core/b.cpp") + "," + p.entry("train/main.cpp") +
             "," + p.entry("core/allow.cpp") + "," + p.entry("core/whole.cpp"));
  CommandResult r = p.runIn(".", "scan --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // allow.cpp: 8 allowed, 6 counted (8, 17 dp, 18 tp, 25, 27, 28); whole.cpp: 1 and 1; the
  // project's own 5.
  EXPECT_EQ(j["summary"]["total"], 12);
  EXPECT_EQ(j["summary"]["suppressed"], 9);
  EXPECT_EQ(j["summary"]["bad_suppressions"], 1);
  ASSERT_EQ(j["bad_suppressions"].size(), 1u);
  EXPECT_EQ(j["bad_suppressions"][0]["file"], "src/core/allow.cpp");
  EXPECT_EQ(j["bad_suppressions"][0]["line"], 27);
  EXPECT_EQ(j["bad_suppressions"][0]["problem"],
            "allow names 'pt', which is no group, accessor, macro or global of the rule packs: "
            "it covers no read of that name");

  using Key = std::pair<int, std::string>;  // line, accessor
  std::map<Key, std::string> got;           // reason, or "" when counted
  for (const auto& read : j["reads"])
    if (read["file"] == "src/core/allow.cpp")
      got[{read["line"].get<int>(), read["name"].get<std::string>()}] =
          read["suppressed"].is_null() ? "" : read["suppressed"].get<std::string>();
  const std::string tp = "ps::get_tp", dp = "ps::get_dp";
  std::map<Key, std::string> want = {{{3, tp}, "same line"},
                                     {{5, tp}, "line above"},
                                     {{7, tp}, "next line"},
                                     {{8, tp}, ""},
                                     {{12, tp}, "block"},
                                     {{13, dp}, "block"},
                                     {{17, tp}, "only tp"},
                                     {{17, dp}, ""},
                                     {{18, tp}, ""},
                                     {{18, dp}, "a block comment"},
                                     {{23, tp}, "a call over two lines"},
                                     {{25, dp}, ""},
                                     {{27, tp}, ""},
                                     {{28, tp}, ""}};
  EXPECT_EQ(got, want);

  std::map<std::string, std::string> whole;
  for (const auto& read : j["reads"])
    if (read["file"] == "src/core/whole.cpp")
      whole[read["name"]] =
          read["suppressed"].is_null() ? "" : read["suppressed"].get<std::string>();
  EXPECT_EQ(whole, (std::map<std::string, std::string>{{dp, "this file's dp reads are deliberate"},
                                                       {tp, ""}}));
}

}  // namespace
}  // namespace gridlock::test
