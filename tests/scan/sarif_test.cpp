// SARIF for code scanning: regions with their end, help in Markdown with an https helpUri (the
// docs of this version online, or --docs-url / "docs_url"), the driver's full version, and the
// rewriter's substitutions as fixes. (docs/scan.md, "Output")
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

TEST(Sarif, EndsHelpAndFixes) {
  SmallProject p("sarif-fixes");
  // The pack spells a group from a group in scope, so a read with one there is substituted.
  writeFile(p.dir() + "/ours.json",
            R"({"name": "ours",
 "scope": {"include": ["**"], "exclude": [], "edges": ["src/train/**"]},
 "accessors": [
   {"function": "ps::get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
   {"function": "ps::get_dp", "kind": "accessor", "group": "dp", "yields": "group"}],
 "rewrite": {"spell": {"group": "{g}"}}})");
  p.write("core/sub.cpp",
          "#include \"../ps.h\"\n"
          "void sub(ps::Group* tp_group) {\n"
          "  ps::get_tp();\n"
          "}\n"
          "void multi() { auto* g = ps::get_dp(\n"
          "); (void)g; }\n");
  p.database(p.entry("core/sub.cpp"));
  CommandResult r = p.runIn(".", "scan --format sarif");
  ASSERT_EQ(r.status, 0) << r.err;
  auto s = nlohmann::json::parse(r.out);
  const auto& run = s["runs"][0];

  // The build's default (CMake's GRIDLOCK_DOCS_URL): an https URL, as code scanning wants.
  const std::string docs = GRIDLOCK_EXPECTED_DOCS_URL;
  EXPECT_EQ(docs.rfind("https://", 0), 0u) << docs;
  EXPECT_EQ(docs.back(), '/') << docs;
  const auto& driver = run["tool"]["driver"];
  EXPECT_EQ(driver["version"], GRIDLOCK_EXPECTED_VERSION);
  EXPECT_EQ(driver["semanticVersion"], GRIDLOCK_EXPECTED_VERSION);
  EXPECT_EQ(driver["informationUri"], docs);
  const auto& rules = driver["rules"];
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0]["id"], "gridlock-global-read");
  EXPECT_EQ(rules[0]["helpUri"], docs + "scan.md#what-counts-as-a-read");
  std::string markdown = rules[0]["help"]["markdown"];
  EXPECT_EQ(markdown.rfind("**A read of process-wide parallel state; pass the group "
                           "explicitly.**\n\n",
                           0),
            0u)
      << markdown;
  EXPECT_NE(markdown.find("([suppressions](" + docs + "suppressions.md))"), std::string::npos)
      << markdown;
  for (const auto& rule : rules) EXPECT_TRUE(rule["help"].contains("markdown")) << rule;

  const auto& results = run["results"];
  ASSERT_EQ(results.size(), 2u);
  // `ps::get_tp()` on line 3: the region runs from the name to the end of the call, the fix
  // replaces the whole call.
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"],
            nlohmann::json::parse(
                R"({"startLine": 3, "startColumn": 7, "endLine": 3, "endColumn": 15})"));
  EXPECT_EQ(results[0]["fixes"], nlohmann::json::parse(R"([{
    "description": {"text": "use tp_group"},
    "artifactChanges": [{
      "artifactLocation": {"uri": "src/core/sub.cpp", "uriBaseId": "%SRCROOT%"},
      "replacements": [{
        "deletedRegion": {"startLine": 3, "startColumn": 3, "endLine": 3, "endColumn": 15},
        "insertedContent": {"text": "tp_group"}}]}]}])"));
  // A call over two lines; nothing in scope to substitute: no fix.
  EXPECT_EQ(results[1]["locations"][0]["physicalLocation"]["region"],
            nlohmann::json::parse(
                R"({"startLine": 5, "startColumn": 30, "endLine": 6, "endColumn": 2})"));
  EXPECT_FALSE(results[1].contains("fixes"));
}

// The docs a team reads (a mirror, an intranet): --docs-url, else "docs_url" of .gridlock.json;
// a '/' is added when missing. Anything but an absolute http(s) URL is bad input.
TEST(Sarif, HelpUriFollowsTheConfiguredDocs) {
  SmallProject p("sarif-docs");
  auto helpUri = [](const CommandResult& r) {
    auto s = nlohmann::json::parse(r.out);
    return s["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"].get<std::string>();
  };
  CommandResult flag = p.runIn(".", "scan --format sarif --docs-url https://docs.example/gl");
  ASSERT_EQ(flag.status, 0) << flag.err;
  EXPECT_EQ(helpUri(flag), "https://docs.example/gl/scan.md#what-counts-as-a-read");

  writeFile(
      p.dir() + "/.gridlock.json",
      R"({"build": "build", "rules": ["ours"], "docs_url": "https://intranet.example/gridlock/"})");
  CommandResult config = p.runIn(".", "scan --format sarif");
  ASSERT_EQ(config.status, 0) << config.err;
  EXPECT_EQ(helpUri(config), "https://intranet.example/gridlock/scan.md#what-counts-as-a-read");
  CommandResult both = p.runIn(".", "scan --format sarif --docs-url http://mirror.example/d/");
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_EQ(helpUri(both), "http://mirror.example/d/scan.md#what-counts-as-a-read");

  CommandResult bad = p.runIn(".", "scan --format sarif --docs-url docs/");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err,
            "gridlock: error: --docs-url docs/: expected an http:// or https:// URL of the docs "
            "pages\n");

  writeFile(p.dir() + "/.gridlock.json",
            R"({"build": "build", "rules": ["ours"], "docs_url": "intranet/gridlock"})");
  CommandResult badKey = p.runIn(".", "scan --format sarif");
  EXPECT_EQ(badKey.status, 2);
  EXPECT_EQ(badKey.err, "gridlock: error: " + p.real() +
                            "/.gridlock.json: /docs_url: expected an http:// or https:// URL of "
                            "the docs pages\n");
}

}  // namespace
}  // namespace gridlock::test
