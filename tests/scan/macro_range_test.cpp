// A read spelled by a macro covers that macro's expansion, not a larger expression that
// happens to start with it: the rewriter replaces exactly those bytes.
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

TEST(MacroReads, RangeIsTheExpansionNotTheExpressionItStarts) {
  TempProject p("macro-range");
  writeFile(p.dir() + "/m.json", R"({"name": "m", "types": [{"type": "MPI_Comm",
    "yields": "group", "group": "world"}], "accessors": [{"macro": "MPI_COMM_WORLD",
    "kind": "accessor", "group": "world", "yields": "group"}],
    "rewrite": {"spell": {"group": "{g}"}}})");
  const std::string line = "bool f(MPI_Comm comm) { return MPI_COMM_WORLD == comm; }\n";
  p.write("a.cpp", "typedef int MPI_Comm;\n#define MPI_COMM_WORLD 1\n" + line);
  p.database(p.entry("a.cpp"));
  CommandResult scan = p.run("scan --format json " + p.scanArgs("m.json"));
  ASSERT_EQ(scan.status, 0) << scan.err;
  auto reads = nlohmann::json::parse(scan.out)["reads"];
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0]["column"], 32);
  EXPECT_EQ(reads[0]["length"], 14);  // "MPI_COMM_WORLD"

  CommandResult diff = p.run("rewrite --diff " + p.scanArgs("m.json"));
  EXPECT_EQ(diff.status, 0) << diff.err;
  EXPECT_NE(diff.out.find("+bool f(MPI_Comm comm) { return comm == comm; }\n"), std::string::npos)
      << diff.out << diff.err;
}

}  // namespace
}  // namespace gridlock::test
