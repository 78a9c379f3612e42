// `.gridlock.json`: found upward from the working directory, its directory the root, its paths
// relative to it, overridden by the command line; the baseline records its root and refuses
// another. (docs/configuration.md)
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>

namespace gridlock::test {
namespace {

// Five counted reads, the edge read apart, whatever the working directory: the root is the
// config's directory, so the pack's `src/train/**` edge glob always matches.
TEST(Config, SameCountsFromThreeWorkingDirectories) {
  SmallProject p("config-cwd");
  std::string first;
  for (const char* cwd : {".", "src", "src/train"}) {
    // --no-cache: the second and third runs would otherwise report cache hits.
    CommandResult r = p.runIn(cwd, "scan --format json --no-cache");
    ASSERT_EQ(r.status, 0) << cwd << ": " << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["summary"]["total"], 5) << cwd;
    EXPECT_EQ(j["summary"]["edges"], 1) << cwd;
    EXPECT_EQ(j["summary"]["by_file"],
              nlohmann::json::parse(R"({"src/core/a.cpp": 3, "src/core/b.cpp": 1,
                                        "src/core/shared.h": 1})"))
        << cwd;
    if (first.empty())
      first = r.out;
    else
      EXPECT_EQ(r.out, first) << cwd;  // byte for byte
  }
}

// `gridlock gate` needs no arguments: build, rules and baseline come from the config; the
// baseline it creates records the root relative to itself.
TEST(Config, GateWithNoArguments) {
  SmallProject p("config-gate");
  CommandResult created = p.runIn("src/train", "gate --update");
  ASSERT_EQ(created.status, 0) << created.out << created.err;
  EXPECT_EQ(created.out, "gate: created baseline " + p.real() +
                             "/gridlock-baseline.json with 5 reads in 5 "
                             "keys\n");
  auto b = nlohmann::json::parse(readFile(p.baseline()));
  EXPECT_EQ(b["root"], ".");
  EXPECT_EQ(b["total"], 5);

  CommandResult same = p.runIn("src", "gate");
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_EQ(same.out, "gate: passed: 5 global reads, as in the baseline\n");

  // -v says which configuration was used, and the root it gives.
  CommandResult verbose = p.runIn("src", "gate -v -q");
  EXPECT_EQ(verbose.status, 0) << verbose.err;
  EXPECT_NE(
      verbose.err.find("gridlock: using " + p.real() + "/.gridlock.json (root " + p.real() + ")\n"),
      std::string::npos)
      << verbose.err;
}

// A baseline made against one root refuses a run against another (its names would mean other
// files), before anything is parsed.
TEST(Config, BaselineRefusesAnotherRoot) {
  SmallProject p("config-root");
  ASSERT_EQ(p.runIn(".", "gate --update").status, 0);
  std::string bytes = readFile(p.baseline());
  CommandResult r = p.runIn(".", "gate --root src");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "gridlock: error: the baseline " + p.real() +
                       "/gridlock-baseline.json was made with the root at \".\" (relative to "
                       "the baseline), but this run's root " +
                       p.real() +
                       "/src is \"src\" from it; run from the project (the directory of "
                       ".gridlock.json) or pass the same --root, so that its file names mean "
                       "the same files\n");
  EXPECT_EQ(readFile(p.baseline()), bytes);
}

// Options on the command line win over the file: --rules (a path, relative to the working
// directory), --root (the edge glob, relative to the root, no longer matches), -p.
TEST(Config, CommandLineOverridesTheFile) {
  SmallProject p("config-override");
  writeFile(p.dir() + "/dp.json",
            R"({"name": "dp", "accessors": [
  {"function": "ps::get_dp", "kind": "accessor", "group": "dp", "yields": "group"}]})");
  CommandResult dp = p.runIn(".", "scan --format json --rules dp.json");
  ASSERT_EQ(dp.status, 0) << dp.err;
  EXPECT_EQ(nlohmann::json::parse(dp.out)["summary"]["total"], 3);  // a_two, shared, b_one

  CommandResult root = p.runIn(".", "scan --format json --root src");
  ASSERT_EQ(root.status, 0) << root.err;
  auto j = nlohmann::json::parse(root.out);
  EXPECT_EQ(j["summary"]["total"], 6);  // train/main.cpp is no edge under this root
  EXPECT_EQ(j["summary"]["edges"], 0);
  EXPECT_EQ(j["summary"]["by_file"]["train/main.cpp"], 1);

  std::filesystem::create_directories(p.dir() + "/other");
  writeFile(p.dir() + "/other/compile_commands.json", "[" + p.entry("core/b.cpp") + "]\n");
  CommandResult db = p.runIn(".", "scan --format json -p other");
  ASSERT_EQ(db.status, 0) << db.err;
  EXPECT_EQ(nlohmann::json::parse(db.out)["summary"]["total"], 1);  // b.cpp alone
}

// rewrite: -p and --rules from the config, and --recover looks in the config's root.
TEST(Config, RewriteUsesTheConfigToo) {
  SmallProject p("config-rewrite");
  CommandResult diff = p.runIn("src/core", "rewrite --diff -q");
  EXPECT_EQ(diff.status, 0) << diff.err;
  EXPECT_NE(diff.err.find("gridlock: rewrite: "), std::string::npos) << diff.err;
  CommandResult recover = p.runIn("src/core", "rewrite --recover");
  EXPECT_EQ(recover.status, 0) << recover.err;
  EXPECT_EQ(recover.err,
            "gridlock: rewrite: " + p.real() + " holds no journal; nothing to recover\n");
}

TEST(Config, UnknownKeyIsAnErrorNamingIt) {
  SmallProject p("config-bad");
  writeFile(p.dir() + "/.gridlock.json", R"({"bild": "build", "rules": ["ours"]})");
  CommandResult r = p.runIn("src", "scan");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gridlock: error: " + p.real() +
                       "/.gridlock.json: /bild: unknown key (expected build, rules, baseline, "
                       "root, extra_args, remove_args, jobs, docs_url, python_roots, package_root, "
                       "downstream); did you mean \"build\"?\n");
}

TEST(Config, NoBuildDirectoryAnywhereIsAnError) {
  std::string dir = makeTempDir("config-none");
  CommandResult r = runCommand("cd " + shellQuote(dir) + " && " + GRIDLOCK_BIN + " scan");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gridlock: error: no build directory: pass -p BUILD (the directory holding "
            "compile_commands.json, or the file itself) or set \"build\" in a .gridlock.json "
            "(none found from the current directory upward)\n");
  std::filesystem::remove_all(dir);
}

// --config names the file: its directory is the root whatever the working directory.
TEST(Config, ExplicitConfigFile) {
  SmallProject p("config-explicit");
  std::string elsewhere = makeTempDir("config-elsewhere");
  CommandResult r = runCommand("cd " + shellQuote(elsewhere) + " && " + GRIDLOCK_BIN +
                               " scan --format json --config " + p.dir() + "/.gridlock.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["total"], 5);
  CommandResult missing =
      runCommand(std::string(GRIDLOCK_BIN) + " scan --config " + elsewhere + "/none.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "gridlock: error: --config " + elsewhere + "/none.json: no such file\n");
  std::filesystem::remove_all(elsewhere);
}

// A `.gridlock.json` of another user (here nobody's, in a directory above the working one) is
// skipped with a warning, so its build, extra_args and baseline steer nothing; the search goes
// on upward to the user's own. GRIDLOCK_SAFE_DIRECTORIES trusts it by its directory.
TEST(Config, AnotherUsersConfigIsIgnoredWithAWarningUnlessTrusted) {
  if (::geteuid() != 0) GTEST_SKIP() << "a file of another user needs root to make";
  SmallProject p("config-owner");
  // Nearer than the project's own: a planted one that would scan nothing of the project.
  writeFile(p.dir() + "/src/.gridlock.json", R"({"build": "nowhere", "rules": ["ours"]})");
  ASSERT_EQ(::chown((p.dir() + "/src/.gridlock.json").c_str(), 65534, 65534), 0);
  const std::string warning = "gridlock: warning: " + p.real() +
                              "/src/.gridlock.json: ignored, not a configuration of yours: owned "
                              "by uid 65534, not by you (uid 0) nor root; to trust it, set "
                              "GRIDLOCK_SAFE_DIRECTORIES=" +
                              p.real() + "/src\n";
  CommandResult own = p.runIn("src/core", "scan --format json --no-cache");
  ASSERT_EQ(own.status, 0) << own.err;
  EXPECT_EQ(own.err, warning);
  EXPECT_EQ(nlohmann::json::parse(own.out)["summary"]["total"], 5);

  // The project's own, of another user too: nothing is configured.
  ASSERT_EQ(::chown((p.dir() + "/.gridlock.json").c_str(), 65534, 65534), 0);
  CommandResult none = p.runIn("src/core", "scan --no-cache");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, warning + "gridlock: warning: " + p.real() +
                          "/.gridlock.json: ignored, not a configuration of yours: owned by uid "
                          "65534, not by you (uid 0) nor root; to trust it, set "
                          "GRIDLOCK_SAFE_DIRECTORIES=" +
                          p.real() +
                          "\ngridlock: error: no build directory: pass -p BUILD (the directory "
                          "holding compile_commands.json, or the file itself) or set \"build\" "
                          "in a .gridlock.json (none found from the current directory upward)\n");

  // Trusted by its directory, it is used as the user's own.
  CommandResult trusted =
      p.runIn("src/core", "scan --format json --no-cache", "GRIDLOCK_SAFE_DIRECTORIES=" + p.dir());
  ASSERT_EQ(trusted.status, 0) << trusted.err;
  EXPECT_EQ(trusted.err, warning);
  EXPECT_EQ(nlohmann::json::parse(trusted.out)["summary"]["total"], 5);
}

// A link is trusted by the owners of the link and of its target, never by following it alone:
// a link another user planted to a configuration of yours (its build, its root: the link's
// directory) is ignored as their own configuration would be; so is a baseline or a pack the
// config finds through such a link (exit 2: the gate would judge by someone else's counts).
TEST(Config, ALinkIsTrustedByTheOwnersOfTheLinkAndOfItsTarget) {
  if (::geteuid() != 0) GTEST_SKIP() << "a link of another user needs root to make";
  SmallProject p("config-link");
  auto lchownTo = [&](const std::string& path, uid_t uid) {
    ASSERT_EQ(::lchown(path.c_str(), uid, uid), 0) << path;
  };
  // A config of yours elsewhere, which would scan nothing of the project, linked nearer than
  // the project's own by another user.
  writeFile(p.dir() + "/elsewhere/.gridlock.json", R"({"build": "nowhere", "rules": ["ours"]})");
  std::filesystem::create_symlink("../elsewhere/.gridlock.json", p.dir() + "/src/.gridlock.json");
  lchownTo(p.dir() + "/src/.gridlock.json", 65534);
  const std::string ignored = "gridlock: warning: " + p.real() +
                              "/src/.gridlock.json: ignored, not a configuration of yours: a "
                              "link owned by uid 65534, not by you (uid 0) nor root; to trust "
                              "it, set GRIDLOCK_SAFE_DIRECTORIES=" +
                              p.real() + "/src\n";
  CommandResult planted = p.runIn("src/core", "scan --format json --no-cache");
  ASSERT_EQ(planted.status, 0) << planted.err;
  EXPECT_EQ(planted.err, ignored);
  EXPECT_EQ(nlohmann::json::parse(planted.out)["summary"]["total"], 5);

  // Your own link to another user's file: ignored too, naming the target.
  lchownTo(p.dir() + "/src/.gridlock.json", 0);
  lchownTo(p.dir() + "/elsewhere/.gridlock.json", 65534);
  CommandResult theirs = p.runIn("src/core", "scan --format json --no-cache");
  ASSERT_EQ(theirs.status, 0) << theirs.err;
  EXPECT_EQ(theirs.err, "gridlock: warning: " + p.real() +
                            "/src/.gridlock.json: ignored, not a configuration of yours: a link "
                            "to " +
                            p.real() +
                            "/elsewhere/.gridlock.json, which is owned by uid 65534, not by you "
                            "(uid 0) nor root; to trust it, set GRIDLOCK_SAFE_DIRECTORIES=" +
                            p.real() + "/src\n");
  std::filesystem::remove(p.dir() + "/src/.gridlock.json");

  // The project's baseline, a link another user planted: refused before anything is read.
  ASSERT_EQ(p.runIn(".", "gate --update -q --no-cache").status, 0);
  std::filesystem::rename(p.baseline(), p.dir() + "/elsewhere/b.json");
  std::filesystem::create_symlink("elsewhere/b.json", p.baseline());
  lchownTo(p.baseline(), 65534);
  lchownTo(p.dir() + "/elsewhere/b.json", 0);
  CommandResult gate = p.runIn(".", "gate --no-cache");
  EXPECT_EQ(gate.status, 2);
  EXPECT_EQ(gate.err, "gridlock: error: " + p.real() +
                          "/gridlock-baseline.json: the baseline named by " + p.real() +
                          "/.gridlock.json, not trusted: a link owned by uid 65534, not by you "
                          "(uid 0) nor root; to trust it, set GRIDLOCK_SAFE_DIRECTORIES=" +
                          p.real() + "\n");
  EXPECT_EQ(p.runIn(".", "gate --no-cache", "GRIDLOCK_SAFE_DIRECTORIES=" + p.dir()).status, 0);

  // The pack the config names, the same.
  std::filesystem::rename(p.dir() + "/ours.json", p.dir() + "/elsewhere/ours.json");
  std::filesystem::create_symlink("elsewhere/ours.json", p.dir() + "/ours.json");
  lchownTo(p.dir() + "/ours.json", 65534);
  CommandResult scan = p.runIn(".", "scan --no-cache");
  EXPECT_EQ(scan.status, 2);
  EXPECT_EQ(scan.err, "gridlock: error: " + p.real() + "/ours.json: the rule pack named by " +
                          p.real() +
                          "/.gridlock.json, not trusted: a link owned by uid 65534, not by you "
                          "(uid 0) nor root; to trust it, set GRIDLOCK_SAFE_DIRECTORIES=" +
                          p.real() + "\n");
}

}  // namespace
}  // namespace gridlock::test
