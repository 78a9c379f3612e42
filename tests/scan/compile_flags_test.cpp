// Compile commands a user cannot change: flags in the database that Clang cannot take are left
// out with a note, and --remove-arg / "remove_args" leave out what the user names (globs, as
// clangd's `CompileFlags: Remove`). (docs/scan.md#compile-commands, docs/configuration.md)
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

const char* kPack = R"({"name": "t", "accessors": [
  {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}]})";
const char* kHeader = "namespace ps { struct PG {}; PG* get_tp_group(); }\n";
// Two reads; a command defining BROKEN does not parse.
const char* kTwoReads =
    "#include \"ps.h\"\n"
    "#ifdef BROKEN\n"
    "#error built for another configuration\n"
    "#endif\n"
    "ps::PG* f() { return ps::get_tp_group(); }\n"
    "ps::PG* g() { return ps::get_tp_group(); }\n";

struct Project : TempProject {
  Project(const std::string& tag, const std::string& flags) : TempProject(tag) {
    writeFile(dir() + "/t.json", kPack);
    write("ps.h", kHeader);
    std::string file = write("a.cpp", kTwoReads);
    database(entry("a.cpp", "", flags + " -c " + file));
  }
  // -q: no progress line, so stderr holds only what the scan says.
  std::string args() const { return scanArgs("t.json") + " --format json -q"; }
  std::string file() const { return src() + "/a.cpp"; }
};

// GCC's own flags in a GCC build's database: Clang stops at them, so they are left out and
// said; the two reads are found.
TEST(CompileFlags, GccOnlyFlagsAreDroppedWithANote) {
  Project p("flags-gcc",
            "/usr/bin/g++ -std=c++17 -O2 -ftree-vectorizer-verbose=2 -Wall "
            "-fno-var-tracking-assignments");
  CommandResult r = p.run("scan " + p.args());
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["total"], 2);
  EXPECT_EQ(j["summary"]["parse_errors"], 0);
  EXPECT_EQ(j["notes"], nlohmann::json::parse(R"j({"a.cpp": [
    "dropped -ftree-vectorizer-verbose=2: Clang does not know it",
    "dropped -fno-var-tracking-assignments: Clang does not know it"]})j"));
}

// A flag Clang knows but cannot use here (a GCC plugin, a define for another configuration):
// removed by glob, by the joined words of a flag and its value, and by a flag's name.
TEST(CompileFlags, RemoveArgTakesGlobsAndNames) {
  Project p("flags-remove",
            "clang++ -std=c++17 -fplugin=/nonexistent/gcc_plugin.so -DBROKEN -include ps.h");
  CommandResult broken = p.run("scan " + p.args());
  EXPECT_EQ(broken.status, 2) << broken.out;

  CommandResult r = p.run("scan " + p.args() +
                          " --remove-arg '-fplugin=*' --remove-arg -D --remove-arg '-include ps*'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["total"], 2);
  EXPECT_EQ(j["notes"], nlohmann::json::parse(R"j({"a.cpp": [
    "removed -fplugin=/nonexistent/gcc_plugin.so (remove pattern '-fplugin=*')",
    "removed -DBROKEN (remove pattern '-D')",
    "removed -include ps.h (remove pattern '-include ps*')"]})j"));
}

// "remove_args" in .gridlock.json does the same; --remove-arg replaces it.
TEST(CompileFlags, RemoveArgsFromTheConfig) {
  Project p("flags-config", "clang++ -std=c++17 -DBROKEN -DKEEP");
  writeFile(p.dir() + "/.gridlock.json",
            R"({"build": "build", "rules": ["t.json"], "root": "src", "remove_args": ["-DB*"]})");
  CommandResult r = p.run("scan --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["total"], 2);
  EXPECT_EQ(j["notes"], nlohmann::json::parse(R"j({"a.cpp": [
    "removed -DBROKEN (remove pattern '-DB*')"]})j"));

  CommandResult replaced = p.run("scan --format json --remove-arg -DKEEP");
  EXPECT_EQ(replaced.status, 2) << replaced.out;  // -DBROKEN stays: the file does not parse
}

// A pattern that removes nothing is said (a typo would otherwise pass unnoticed); one that is
// no glob is bad input.
TEST(CompileFlags, UselessOrBadPatternsAreSaid) {
  Project p("flags-bad", "clang++ -std=c++17");
  CommandResult unused = p.run("scan " + p.args() + " --remove-arg '-march=*'");
  ASSERT_EQ(unused.status, 0) << unused.err;
  EXPECT_EQ(unused.err,
            "gridlock: warning: --remove-arg '-march=*' matched no argument of the compile "
            "database\n");
  CommandResult bad = p.run("scan " + p.args() + " --remove-arg '-f[oo'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err,
            "gridlock: error: --remove-arg '-f[oo': not a glob: invalid glob pattern, "
            "unmatched '['\n");
}

}  // namespace
}  // namespace gridlock::test
