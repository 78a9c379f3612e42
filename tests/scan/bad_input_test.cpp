// What the scan does with input that would check nothing: an empty compile database, a root
// or positional paths that select no translation unit, database entries Clang cannot run, and
// rule-pack entries that match nothing in the scanned code. (docs/guarantees.md, `## scan`)
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const char* kPack = R"({"name": "t", "accessors": [
  {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}]})";
const char* kHeader = "namespace ps { struct PG {}; PG* get_tp_group(); }\n";
const char* kOneRead = "#include \"ps.h\"\nps::PG* f() { return ps::get_tp_group(); }\n";

// A project with src/ps.h, src/a.cpp (one read) and the pack t.json.
struct Project : TempProject {
  explicit Project(const std::string& tag) : TempProject(tag) {
    writeFile(dir() + "/t.json", kPack);
    write("ps.h", kHeader);
    write("a.cpp", kOneRead);
  }
  std::string args() const { return scanArgs("t.json"); }
};

std::string real(const std::string& path) { return std::filesystem::canonical(path).string(); }

TEST(ZeroUnits, EmptyDatabaseIsAnError) {
  Project p("empty-db");
  p.database("[]");
  CommandResult scan = p.run("scan " + p.args());
  EXPECT_EQ(scan.status, 2);
  EXPECT_EQ(scan.err,
            "gridlock: error: the compile database build/compile_commands.json has no entries: "
            "nothing to scan\n");
  CommandResult gate = p.run("gate " + p.args() + " --baseline base.json --update");
  EXPECT_EQ(gate.status, 2);
  EXPECT_FALSE(std::filesystem::exists(p.dir() + "/base.json")) << gate.out;
}

TEST(ZeroUnits, RootWithoutDatabaseFilesIsAnError) {
  Project p("root-none");
  p.database(p.entry("a.cpp"));
  std::filesystem::create_directories(p.dir() + "/elsewhere");
  CommandResult r = p.run("scan -p build --rules t.json --root elsewhere");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gridlock: error: none of the 1 file(s) in the compile database "
            "build/compile_commands.json lies under --root " +
                real(p.dir() + "/elsewhere") + ": nothing to scan\n");
}

TEST(ZeroUnits, PositionalFileOutsideRootIsAnError) {
  Project p("pos-outside");
  p.write("sub/b.cpp", kOneRead);
  p.database(p.entry("a.cpp") + "," + p.entry("sub/b.cpp"));
  CommandResult r = p.run("scan -p build --rules t.json --root src/sub src/a.cpp");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gridlock: error: src/a.cpp: in the compile database, but outside --root " +
                       real(p.src() + "/sub") + "\n");
}

TEST(ZeroUnits, PositionalPathsThatMatchNothingAreErrors) {
  Project p("pos-nothing");
  p.write("lonely.h", "int lonely();\n");
  p.database(p.entry("a.cpp"));
  CommandResult missing = p.run("scan " + p.args() + " src/nope/");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "gridlock: error: src/nope/: no such file or directory\n");
  CommandResult header = p.run("scan " + p.args() + " src/lonely.h");
  EXPECT_EQ(header.status, 2);
  EXPECT_EQ(header.err,
            "gridlock: error: src/lonely.h: not in the compile database, and no translation unit "
            "under --root includes it\n");
}

TEST(ZeroUnits, PositionalDirectoryWithTrailingSlash) {
  Project p("pos-slash");
  p.write("core/b.cpp", "#include \"../ps.h\"\nps::PG* f() { return ps::get_tp_group(); }\n");
  p.database(p.entry("a.cpp") + "," + p.entry("core/b.cpp"));
  CommandResult r = p.run("scan --format json " + p.args() + " src/core/");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["files_scanned"], 1);
  ASSERT_EQ(j["reads"].size(), 1u);
  EXPECT_EQ(j["reads"][0]["file"], "core/b.cpp");
}

// `--root /`, and a run from `/` without --root (a container's working directory): every file
// lies under it, named by its path without the first slash.
TEST(ZeroUnits, RootSlashHoldsEveryFile) {
  Project p("root-slash");
  p.database(p.entry("a.cpp"));
  const std::string file = real(p.src()).substr(1) + "/a.cpp";
  for (const std::string& command :
       {"cd " + shellQuote(p.dir()) + " && " + GRIDLOCK_BIN +
            " scan --no-cache --format json -p build --rules t.json --root /",
        "cd / && " + std::string(GRIDLOCK_BIN) + " scan --no-cache --format json -p " + p.build() +
            " --rules " + p.dir() + "/t.json"}) {
    SCOPED_TRACE(command);
    CommandResult r = runCommand(command);
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["summary"]["files_scanned"], 1);
    ASSERT_EQ(j["reads"].size(), 1u);
    EXPECT_EQ(j["reads"][0]["file"], file);
    EXPECT_EQ(j["reads"][0]["line"], 2);
  }
}

TEST(ZeroUnits, RootThatIsAFileIsAnError) {
  Project p("root-file");
  p.database(p.entry("a.cpp"));
  CommandResult r = p.run("scan -p build --rules t.json --root src/a.cpp");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gridlock: error: --root src/a.cpp: not a directory\n");
}

TEST(DatabaseEntries, MissingDirectoryIsAnErrorNamingTheEntry) {
  Project p("bad-dir");
  p.database(p.entry("a.cpp", "/nonexistent-gridlock-dir"));
  CommandResult absolute = p.run("scan " + p.args());
  EXPECT_EQ(absolute.status, 2);
  EXPECT_EQ(absolute.err, "gridlock: error: compile database entry for " + p.src() +
                              "/a.cpp: directory /nonexistent-gridlock-dir does not exist\n");

  p.database(p.entry("a.cpp", "no/such/dir"));
  CommandResult relative = p.run("scan " + p.args());
  EXPECT_EQ(relative.status, 2);
  EXPECT_EQ(relative.err, "gridlock: error: compile database entry for " + p.src() +
                              "/a.cpp: directory no/such/dir does not exist (relative to " +
                              real(p.dir()) + ")\n");

  p.database(p.entry("a.cpp", p.src() + "/a.cpp"));
  CommandResult file = p.run("scan " + p.args());
  EXPECT_EQ(file.status, 2);
  EXPECT_EQ(file.err, "gridlock: error: compile database entry for " + p.src() +
                          "/a.cpp: directory " + p.src() + "/a.cpp is not a directory\n");
}

// A relative `file` in a directory that does not exist: where the file lies is unknown, so it
// is the same error, not "outside --root" nor "nothing to scan".
TEST(DatabaseEntries, RelativeFileInAMissingDirectoryIsAnErrorNamingTheEntry) {
  Project p("bad-dir-rel");
  const std::string absolute =
      "{\"directory\": \"/nonexistent-gridlock-dir\", \"file\": \"a.cpp\", \"command\": "
      "\"clang++ -c a.cpp\"}";
  // Beside an entry under the root that is fine: still an error, never a silent skip.
  const std::string relative = "[" + p.entry("a.cpp") +
                               ", {\"directory\": \"no/such/dir\", \"file\": \"b.cpp\", "
                               "\"command\": \"clang++ -c b.cpp\"}]";
  for (const auto& [database, error] : std::vector<std::pair<std::string, std::string>>{
           {absolute,
            "/nonexistent-gridlock-dir/a.cpp: directory /nonexistent-gridlock-dir does not exist"},
           {relative, "no/such/dir/b.cpp: directory no/such/dir does not exist (relative to " +
                          real(p.dir()) + ")"}}) {
    SCOPED_TRACE(database);
    p.database(database);
    CommandResult r = p.run("scan " + p.args());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "gridlock: error: compile database entry for " + error + "\n");
  }
}

TEST(DatabaseEntries, RelativeDirectoryThatResolvesIsScanned) {
  Project p("rel-dir");
  p.database(p.entry("a.cpp", "src"));
  CommandResult r = p.run("scan --format json " + p.args());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["total"], 1);
}

TEST(DatabaseEntries, EmptyCommandIsAnErrorEvenWithAllowParseErrors) {
  Project p("empty-cmd");
  std::string file = p.src() + "/a.cpp";
  p.database("{\"directory\": \"" + p.src() + "\", \"file\": \"" + file + "\", \"arguments\": []}");
  CommandResult args = p.run("scan --allow-parse-errors " + p.args());
  EXPECT_EQ(args.status, 2);
  EXPECT_EQ(args.err,
            "gridlock: error: compile database entry for " + file + " has an empty command\n");
  p.database("{\"directory\": \"" + p.src() + "\", \"file\": \"" + file + "\", \"command\": \"\"}");
  CommandResult command = p.run("scan --allow-parse-errors " + p.args());
  EXPECT_EQ(command.status, 2);
  EXPECT_EQ(command.err, args.err);
}

TEST(DatabaseEntries, FileListedTwiceCountsOnce) {
  Project p("twice");
  p.database(p.entry("a.cpp") + "," + p.entry("a.cpp"));
  CommandResult r = p.run("scan --format json " + p.args());
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["total"], 1);
  EXPECT_EQ(j["summary"]["files_scanned"], 1);
}

TEST(DatabaseEntries, DashPMayNameTheDatabaseFile) {
  Project p("dash-p-file");
  p.database(p.entry("a.cpp"));
  CommandResult r =
      p.run("scan --format json -p build/compile_commands.json --rules t.json --root src");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["total"], 1);
}

// Every pack entry that the scanned code never declares is counted, once, on stderr, and named
// with -v: a typo in a qualified name, or a pack written for other code, would otherwise pass
// as "0 reads".
TEST(UnmatchedRules, EachEntryNoTranslationUnitDeclaresIsAWarning) {
  TempProject p("unmatched");
  writeFile(p.dir() + "/p.json", R"({"name": "p",
    "scope": {"include": ["**", "nothere/**"]},
    "types": [{"type": "ps::PG", "yields": "group"}, {"type": "ps::Missing", "yields": "group"}],
    "accessors": [
      {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"},
      {"function": "ps::get_dp_group", "kind": "accessor", "group": "dp", "yields": "group"},
      {"function": "ps::only_in_b", "kind": "accessor", "group": "pp", "yields": "group"},
      {"function": "x::get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
      {"macro": "MY_WORLD", "kind": "accessor", "group": "world", "yields": "group"},
      {"macro": "CMD_WORLD", "kind": "accessor", "group": "world", "yields": "group"},
      {"macro": "NO_SUCH_MACRO", "kind": "accessor", "group": "world", "yields": "group"}],
    "globals": [{"variable": "ps::num_heads"}, {"variable": "ps::no_such_global"}]})");
  // get_dp_group, MY_WORLD and num_heads are declared and never read: no warning.
  p.write("ps.h",
          "namespace ps { struct PG {}; PG* get_tp_group(); PG* get_dp_group(); "
          "extern int num_heads; }\n#define MY_WORLD 1\n");
  p.write("a.cpp", "#include \"ps.h\"\nps::PG* f() { return ps::get_tp_group(); }\n");
  // Declared in one of the two units only, and a macro defined on the command line.
  p.write("b.cpp", "#include \"ps.h\"\nnamespace ps { PG* only_in_b(); }\n");
  p.database(p.entry("a.cpp") + "," +
             p.entry("b.cpp", "", "clang++ -std=c++17 -DCMD_WORLD=1 -c " + p.src() + "/b.cpp"));
  CommandResult r = p.run("scan --format json " + p.scanArgs("p.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["total"], 1);
  // One line for the pack: 5 of its 13 entries (7 accessors, 2 globals, 2 types, 2 include
  // globs) matched nothing.
  EXPECT_EQ(r.err,
            "gridlock: warning: pack p: 5 of its 13 entries matched nothing in 2 translation "
            "units (-v lists them)\n");
  // -v: each of them (without the cache, which -v would also explain).
  CommandResult v = p.run("scan --format json -v --no-cache " + p.scanArgs("p.json"));
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.err,
            "gridlock: warning: rule 'x::get_tp' (pack p) matched no declaration in 2 "
            "translation units\n"
            "gridlock: warning: rule 'NO_SUCH_MACRO' (pack p) matched no macro definition in 2 "
            "translation units\n"
            "gridlock: warning: rule 'ps::no_such_global' (pack p) matched no declaration in 2 "
            "translation units\n"
            "gridlock: warning: type rule 'ps::Missing' (pack p) matched no declaration in 2 "
            "translation units\n"
            "gridlock: warning: scope include 'nothere/**' (pack p) matched no file in 2 "
            "translation units\n");
}

// A pack with one entry that matched nothing: that entry's own line, no summary.
TEST(UnmatchedRules, OneTranslationUnitIsSingular) {
  Project p("unmatched-one");
  writeFile(p.dir() + "/u.json", R"({"name": "u", "accessors": [
    {"function": "x::get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]})");
  p.database(p.entry("a.cpp"));
  CommandResult r = p.run("scan --format json " + p.scanArgs("u.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "gridlock: warning: rule 'x::get_tp' (pack u) matched no declaration in 1 "
            "translation unit\n");
}

}  // namespace
}  // namespace gridlock::test
