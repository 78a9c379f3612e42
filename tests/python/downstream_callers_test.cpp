// Downstream checkouts as callers (fixtures/pydownstream): tree/ is the tree, bridge/ (a src
// layout) and rl/ import its lib. Their calls, constructions, subclasses and re-exports of lib's
// defs are callers for `callers` and for whether a fallback is dead; their vendored copies of lib
// (a git submodule, a 3rdparty/ directory, a byte copy of lib's module) are not read; nothing of
// them is counted. Ground truth is beside the code: `# expect-fallback: alone=... downstream=...`
// on each fallback, `# expect-<query>-site: ...` on each site of a query, in every checkout.
#include "scan/annotations.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kBin = GRIDLOCK_BIN;
const std::string kFixture = std::string(GRIDLOCK_SOURCE_DIR) + "/fixtures/pydownstream";
const std::string kDownstream =
    " --downstream " + kFixture + "/bridge --downstream " + kFixture + "/rl";

CommandResult run(const std::string& args) {
  return runCommand("cd " + kFixture + "/tree && " + kBin + " " + args +
                    " --rules gridlock.json --root . --no-cache");
}

// A site's or read's file as the annotations name it: relative to the fixture.
std::string fixtureRelative(const std::string& file) {
  if (!file.empty() && file[0] == '/') return fs::path(file).lexically_relative(kFixture).string();
  return "tree/" + file;
}

// `callers --format json`'s sites, keyed and spelled as the annotations are.
Expectations sitesOf(const nlohmann::json& report) {
  Expectations out;
  for (const auto& s : report["sites"]) {
    std::string text =
        "via=" + s["via"].get<std::string>() + " supplied=" + s["supplied"].get<std::string>();
    if (s.contains("passed")) text += " passed=" + s["passed"].get<std::string>();
    if (!s["class"].get<std::string>().empty()) text += " class=" + s["class"].get<std::string>();
    if (s.contains("forwarded_from")) text += " from=" + s["forwarded_from"].get<std::string>();
    out[{fixtureRelative(s["file"]), s["line"].get<unsigned>()}].insert(text);
  }
  return out;
}

nlohmann::json callersOf(const std::string& function, const std::string& args) {
  CommandResult r =
      run("callers --function " + function + " --param tp_group --format json" + args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The `expect-fallback` annotations: (file, line) -> "dead" or "alive", with downstream
// checkouts (`downstream=`) or without (`alone=`).
std::map<LineKey, std::string> fallbacksExpected(bool downstream) {
  std::map<LineKey, std::string> out;
  const std::regex re(R"(expect-fallback: alone=(\w+) downstream=(\w+))");
  // The tree's (bridge/src/lib/layers.py, a copy of its module, holds the same lines).
  for (const auto& e : fs::recursive_directory_iterator(kFixture + "/tree")) {
    if (e.path().extension() != ".py") continue;
    std::ifstream in(e.path());
    std::string line;
    std::smatch m;
    for (unsigned n = 1; std::getline(in, line); ++n)
      if (std::regex_search(line, m, re))
        out[{fs::relative(e.path(), kFixture).string(), n}] = downstream ? m[2] : m[1];
  }
  return out;
}

std::map<LineKey, std::string> fallbacksScanned(const std::string& args) {
  CommandResult r = run("scan --format json" + args);
  EXPECT_EQ(r.status, 0) << r.err;
  std::map<LineKey, std::string> out;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  for (const auto& read : report["reads"])
    if (read.contains("fallback_dead"))
      out[{fixtureRelative(read["file"]), read["line"].get<unsigned>()}] =
          read["fallback_dead"].get<bool>() ? "dead" : "alive";
  return out;
}

TEST(DownstreamCallers, WithoutCheckoutsEveryFallbackTheTreeSuppliesIsDead) {
  EXPECT_EQ(fallbacksScanned(""), fallbacksExpected(false));
}

// Kept: bridge builds it without the group; Base: bridge's subclass passes none to its
// __init__; helper: rl calls it through bridge's re-export. Dead: every caller passes it, and
// the vendored copies' calls that leave it out are not read.
TEST(DownstreamCallers, ACallerDownstreamKeepsAFallbackAlive) {
  EXPECT_EQ(fallbacksScanned(kDownstream), fallbacksExpected(true));
}

// The reads found with checkouts given are the tree's, no more (nothing of theirs is counted).
TEST(DownstreamCallers, NothingDownstreamIsCounted) {
  CommandResult alone = run("scan --format json");
  CommandResult with = run("scan --format json" + kDownstream);
  ASSERT_EQ(alone.status, 0) << alone.err;
  ASSERT_EQ(with.status, 0) << with.err;
  auto a = nlohmann::json::parse(alone.out), w = nlohmann::json::parse(with.out);
  EXPECT_EQ(w["summary"]["total"], 4);
  EXPECT_EQ(w["summary"], a["summary"]);
  ASSERT_EQ(w["reads"].size(), a["reads"].size());
  for (size_t i = 0; i < a["reads"].size(); ++i) {
    EXPECT_EQ(w["reads"][i]["file"], a["reads"][i]["file"]);
    EXPECT_EQ(w["reads"][i]["line"], a["reads"][i]["line"]);
  }
}

// Each site names its checkout; a tree site names none.
TEST(DownstreamCallers, SitesDownstreamAreListedWithTheirCheckout) {
  nlohmann::json kept = callersOf("lib.layers.Kept", kDownstream);
  EXPECT_EQ(diff(parseAnnotations(kFixture, "expect-kept-site"), sitesOf(kept)), "");
  ASSERT_EQ(kept["sites"].size(), 2u);
  for (const auto& s : kept["sites"])
    EXPECT_EQ(s.value("downstream", ""),
              s["file"].get<std::string>()[0] == '/' ? kFixture + "/bridge" : "")
        << s.dump();
  nlohmann::json base = callersOf("lib.layers.Base", kDownstream);
  EXPECT_EQ(diff(parseAnnotations(kFixture, "expect-base-site"), sitesOf(base)), "");
  nlohmann::json helper = callersOf("lib.layers.helper", kDownstream);
  EXPECT_EQ(diff(parseAnnotations(kFixture, "expect-helper-site"), sitesOf(helper)), "");
}

// The vendored copies are named on stderr, once each, with why they are not read.
TEST(DownstreamCallers, VendoredCopiesAreNotRead) {
  CommandResult r = run("scan --format json" + kDownstream);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string b = kFixture + "/bridge";
  EXPECT_EQ(r.err, "gridlock: note: downstream: not read, a vendored copy: " + b +
                       "/3rdparty: a directory of vendored code (3rdparty/)\n"
                       "gridlock: note: downstream: not read, a vendored copy: " +
                       b + "/deps/lib: a git submodule (.gitmodules)\n" +
                       "gridlock: note: downstream: not read, a vendored copy: " + b +
                       "/src/lib/layers.py: a copy of the tree's module lib.layers\n");
}

// The plan with checkouts keeps what their callers reach (scan --plan: Kept, Base and helper
// open_fallback naming the downstream call, Dead required); the rewrite, whose verification
// would check their files outside the root, refuses them before planning.
TEST(DownstreamCallers, ThePlanSeesThemTheRewriteRefusesThem) {
  CommandResult plan = run("scan --plan --format json" + kDownstream);
  ASSERT_EQ(plan.status, 0) << plan.err;
  std::map<unsigned, std::string> fixes;
  const nlohmann::json report = nlohmann::json::parse(plan.out);
  for (const auto& read : report["reads"]) fixes[read["line"].get<unsigned>()] = read["fix"];
  EXPECT_EQ(
      fixes,
      (std::map<unsigned, std::string>{
          {9, "open_fallback"}, {16, "require"}, {23, "open_fallback"}, {29, "open_fallback"}}));
  CommandResult rw = run("rewrite --diff" + kDownstream);
  EXPECT_EQ(rw.status, 2);
  EXPECT_EQ(rw.out, "");
  EXPECT_EQ(rw.err,
            "gridlock: error: rewrite does not take downstream checkouts yet (--downstream, or "
            "the config's \"downstream\"): its verification would check their files, outside the "
            "root; `gridlock scan --plan` with them shows what their callers decide; nothing "
            "written\n");
}

// The config's "downstream" (relative to the config's directory), in .gridlock.json and in
// pyproject.toml's [tool.gridlock], is --downstream.
TEST(DownstreamCallers, TheConfigNamesThemToo) {
  const fs::path dir =
      fs::temp_directory_path() / ("gridlock-downstream-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::copy(kFixture, dir, fs::copy_options::recursive);
  const std::map<std::string, std::string> configs = {
      {".gridlock.json", R"({"rules": ["gridlock.json"], "downstream": ["../bridge", "../rl"]})"},
      {"pyproject.toml",
       "[tool.gridlock]\nrules = [\"gridlock.json\"]\ndownstream = [\"../bridge\", \"../rl\"]\n"}};
  for (const auto& [name, text] : configs) {
    std::ofstream(dir / "tree" / name) << text;
    CommandResult r = runCommand("cd " + (dir / "tree").string() + " && " + kBin +
                                 " scan --no-cache -q --format json");
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    std::map<unsigned, bool> dead;
    const nlohmann::json report = nlohmann::json::parse(r.out);
    for (const auto& read : report["reads"])
      dead[read["line"].get<unsigned>()] = read["fallback_dead"].get<bool>();
    EXPECT_EQ(dead, (std::map<unsigned, bool>{{9, false}, {16, true}, {23, false}, {29, false}}))
        << name;
    fs::remove(dir / "tree" / name);
  }
  fs::remove_all(dir);
}

// A downstream file that does not parse is a warning naming it, not a parse error of the scan
// (exit 0): the checkout is no part of the tree the gate judges; its other files still count.
TEST(DownstreamCallers, ADownstreamFileThatDoesNotParseIsAWarning) {
  const fs::path dir =
      fs::temp_directory_path() / ("gridlock-downstream-broken-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::copy(kFixture, dir, fs::copy_options::recursive);
  std::ofstream(dir / "rl" / "rl" / "broken.py") << "def f(:\n";
  CommandResult r = runCommand("cd " + (dir / "tree").string() + " && " + kBin +
                               " scan --no-cache -q --format json --rules gridlock.json --root ." +
                               " --downstream ../bridge --downstream ../rl");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string file = (dir / "rl" / "rl" / "broken.py").string();
  EXPECT_EQ(r.err.rfind("gridlock: warning: downstream file " + file +
                            " does not parse; the calls in its unreadable part are not seen as "
                            "callers: " +
                            file + ":1:",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["summary"]["total"], 4);
  for (const auto& read : report["reads"])
    if (read["line"] == 29) EXPECT_FALSE(read["fallback_dead"].get<bool>());  // rl's call
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gridlock::test
