// File names the scan must carry through unchanged: bytes that are not UTF-8, '%', and the
// same file reached through a symlink. (docs/guarantees.md, `## scan` and `## gate`)
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const char* kMpiPack = R"({"name": "m", "types": [{"type": "MPI_Comm", "yields": "group",
  "group": "world"}], "accessors": [{"macro": "MPI_COMM_WORLD", "kind": "accessor",
  "group": "world", "yields": "group"}], "rewrite": {"spell": {"group": "{g}"}}})";
const char* kMpiHeader = "typedef int MPI_Comm;\n#define MPI_COMM_WORLD 1\n";

struct Project : TempProject {
  explicit Project(const std::string& tag) : TempProject(tag) {
    writeFile(dir() + "/m.json", kMpiPack);
    write("mpi.h", kMpiHeader);
  }
  std::string args() const { return scanArgs("m.json"); }
};

const std::string kLatin1 = "caf\xe9";  // "café" in Latin-1: not UTF-8

// The JSON report, SARIF and the baseline name the file reversibly (percent-encoded), and the
// gate reads back what --update wrote.
TEST(OddPaths, NonUtf8FileNameInJsonSarifAndGate) {
  Project p("latin1");
  p.write(kLatin1 + ".cpp", "#include \"mpi.h\"\nint k() { return MPI_COMM_WORLD; }\n");
  p.database(p.entry(kLatin1 + ".cpp"));

  CommandResult json = p.run("scan --format json " + p.args());
  ASSERT_EQ(json.status, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["reads"].size(), 1u);
  EXPECT_EQ(j["reads"][0]["file"], "caf%E9.cpp");
  EXPECT_EQ(j["summary"]["by_file"]["caf%E9.cpp"], 1);

  CommandResult sarif = p.run("scan --format sarif " + p.args());
  ASSERT_EQ(sarif.status, 0) << sarif.err;
  auto s = nlohmann::json::parse(sarif.out);
  EXPECT_EQ(
      s["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
      "caf%E9.cpp");

  CommandResult created = p.run("gate " + p.args() + " --baseline base.json --update");
  ASSERT_EQ(created.status, 0) << created.out << created.err;
  auto b = nlohmann::json::parse(readFile(p.dir() + "/base.json"));
  EXPECT_EQ(b["entries"][0]["file"], "caf%E9.cpp");
  CommandResult again = p.run("gate " + p.args() + " --baseline base.json");
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("gate: passed: 1 global reads, as in the baseline"), std::string::npos)
      << again.out;
}

// '%' itself is encoded, so an encoded name never reads back as another file.
TEST(OddPaths, PercentInFileNameRoundTrips) {
  Project p("percent");
  p.write("100%E9.cpp", "#include \"mpi.h\"\nint k() { return MPI_COMM_WORLD; }\n");
  p.database(p.entry("100%E9.cpp"));
  CommandResult json = p.run("scan --format json " + p.args());
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["reads"][0]["file"], "100%25E9.cpp");
  ASSERT_EQ(p.run("gate " + p.args() + " --baseline base.json --update").status, 0);
  CommandResult again = p.run("gate " + p.args() + " --baseline base.json");
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("as in the baseline"), std::string::npos) << again.out;
}

// A baseline written by hand with the raw bytes of the name is read as that name.
TEST(OddPaths, HandWrittenBaselineWithRawNonUtf8Key) {
  Project p("latin1-hand");
  p.write(kLatin1 + ".cpp", "#include \"mpi.h\"\nint k() { return MPI_COMM_WORLD; }\n");
  p.database(p.entry(kLatin1 + ".cpp"));
  writeFile(p.dir() + "/base.json", "{\"entries\": [{\"file\": \"" + kLatin1 +
                                        ".cpp\", \"enclosing\": \"k\", \"name\": "
                                        "\"MPI_COMM_WORLD\", \"count\": 1}]}\n");
  CommandResult r = p.run("gate " + p.args() + " --baseline base.json");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("as in the baseline"), std::string::npos) << r.out;
}

// Both the link and its target in the database: one file, scanned once, rewritten once.
TEST(OddPaths, SymlinkAndItsTargetAreOneFile) {
  Project p("symlink");
  p.write("real.cpp",
          "#include \"mpi.h\"\nint f(MPI_Comm comm) { return MPI_COMM_WORLD + comm; }\n");
  std::filesystem::create_symlink("real.cpp", p.src() + "/link.cpp");
  p.database(p.entry("real.cpp") + "," + p.entry("link.cpp"));

  CommandResult scan = p.run("scan --format json " + p.args());
  ASSERT_EQ(scan.status, 0) << scan.err;
  auto j = nlohmann::json::parse(scan.out);
  EXPECT_EQ(j["summary"]["files_scanned"], 1);
  ASSERT_EQ(j["reads"].size(), 1u);
  EXPECT_EQ(j["reads"][0]["file"], "real.cpp");

  CommandResult diff = p.run("rewrite --diff " + p.args());
  EXPECT_EQ(diff.status, 0) << diff.err;
  EXPECT_NE(diff.out.find("-int f(MPI_Comm comm) { return MPI_COMM_WORLD + comm; }\n"
                          "+int f(MPI_Comm comm) { return comm + comm; }\n"),
            std::string::npos)
      << diff.out << diff.err;
}

// A source symlinked into the root from outside it is scanned under the name the database
// gives it.
TEST(OddPaths, SymlinkFromOutsideTheRootIsScannedUnderItsDatabaseName) {
  Project p("symlink-out");
  writeFile(p.dir() + "/outside/o.cpp", "#include \"mpi.h\"\nint f() { return MPI_COMM_WORLD; }\n");
  std::filesystem::create_symlink(p.dir() + "/outside/o.cpp", p.src() + "/o.cpp");
  p.database(p.entry("o.cpp", "", "clang++ -std=c++17 -I" + p.src() + " -c " + p.src() + "/o.cpp"));
  CommandResult scan = p.run("scan --format json " + p.args());
  ASSERT_EQ(scan.status, 0) << scan.err;
  auto j = nlohmann::json::parse(scan.out);
  EXPECT_EQ(j["summary"]["files_scanned"], 1);
  ASSERT_EQ(j["reads"].size(), 1u);
  EXPECT_EQ(j["reads"][0]["file"], "o.cpp");
  EXPECT_EQ(j["reads"][0]["line"], 2);
}

}  // namespace
}  // namespace gridlock::test
