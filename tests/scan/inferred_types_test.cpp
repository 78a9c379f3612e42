// A pack written as the smallest pack of docs/contracts.md, without `types`: the group and
// collection types are what its accessors return, so fallbacks and sources in scope are still
// found.
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

TEST(InferredTypes, PackWithoutTypesFindsFallbacksAndSources) {
  TempProject p("inferred");
  writeFile(p.dir() + "/d.json", R"({"name": "d", "accessors": [
    {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"},
    {"function": "ps::Coll::from_globals", "kind": "shim", "yields": "collection"}]})");
  p.write("a.cpp", R"(namespace ps {
struct PG {};
PG* get_tp_group();
struct Coll { PG* tp; static Coll& from_globals(); };
}
ps::PG* f(ps::PG* pg) { return pg ? pg : ps::get_tp_group(); }
ps::PG* g(ps::Coll* coll) { return coll ? coll->tp : ps::get_tp_group(); }
ps::PG* h(ps::Coll* coll) { return ps::get_tp_group(); }
ps::PG* k(ps::PG* tp_group) { return ps::get_tp_group(); }
)");
  p.database(p.entry("a.cpp"));
  CommandResult r = p.run("scan --format json " + p.scanArgs("d.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto reads = nlohmann::json::parse(r.out)["reads"];
  ASSERT_EQ(reads.size(), 4u) << reads;
  EXPECT_EQ(reads[0]["enclosing"], "f");
  EXPECT_EQ(reads[0]["guard"], "fallback");
  EXPECT_EQ(reads[0]["fix"], "require");
  EXPECT_EQ(reads[1]["enclosing"], "g");
  EXPECT_EQ(reads[1]["guard"], "fallback");
  EXPECT_EQ(reads[2]["enclosing"], "h");
  EXPECT_EQ(reads[2]["fix"], "substitute");
  EXPECT_EQ(reads[2]["fix_source"], "coll->tp");
  EXPECT_EQ(reads[3]["enclosing"], "k");
  EXPECT_EQ(reads[3]["fix"], "substitute");
  EXPECT_EQ(reads[3]["fix_source"], "tp_group");
}

}  // namespace
}  // namespace gridlock::test
