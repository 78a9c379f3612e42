// Baseline arithmetic and its byte-stable form.
#include "analysis/baseline.h"
#include "analysis/summary.h"

#include <gtest/gtest.h>

namespace gridlock::analysis {
namespace {

facts::Read read(std::string file, std::string enclosing, std::string name) {
  facts::Read r;
  r.file = std::move(file);
  r.enclosing = std::move(enclosing);
  r.name = std::move(name);
  r.kind = facts::ReadKind::Accessor;
  return r;
}

TEST(Baseline, CountsOnlyCountedReadsByKey) {
  index::Inventory inv;
  inv.reads = {read("b.cpp", "f", "g"), read("a.cpp", "f", "g"), read("a.cpp", "f", "g"),
               read("a.cpp", "", "g")};
  facts::Read edge = read("a.cpp", "f", "g");
  edge.edge = true;
  facts::Read allowed = read("a.cpp", "f", "g");
  allowed.suppressed = "why";
  facts::Read write = read("a.cpp", "f", "v");
  write.kind = facts::ReadKind::GlobalWrite;
  facts::Read edgeWrite = write;
  edgeWrite.edge = true;
  facts::Read allowedWrite = write;
  allowedWrite.suppressed = "why";
  // A read that may change what it reads (`f(&v)`) is a read.
  facts::Read handed = read("a.cpp", "f", "v");
  handed.kind = facts::ReadKind::GlobalState;
  handed.mutated = true;
  for (const auto& r : {edge, allowed, write, write, edgeWrite, allowedWrite, handed})
    inv.reads.push_back(r);
  Baseline b = baselineOf(inv);
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ((b[{"a.cpp", "f", "g"}]), 2u);
  EXPECT_EQ((b[{"a.cpp", "", "g"}]), 1u);
  EXPECT_EQ((b[{"b.cpp", "f", "g"}]), 1u);
  EXPECT_EQ((b[{"a.cpp", "f", "v"}]), 1u);
  EXPECT_EQ((b[{"a.cpp", "f", "v", true}]), 2u);
  EXPECT_EQ(totalOf(b), 5u);
  EXPECT_EQ(totalOf(b, true), 2u);
  auto entry = [](const char* file, const char* enclosing, const char* name, int count) {
    return std::string("    {\n      \"file\": \"") + file + "\",\n      \"enclosing\": \"" +
           enclosing + "\",\n      \"name\": \"" + name +
           "\",\n      \"count\": " + std::to_string(count) + "\n    }";
  };
  EXPECT_EQ(serializeBaseline(b),
            "{\n"
            "  \"gridlock_baseline\": 1,\n"
            "  \"total\": 5,\n"
            "  \"entries\": [\n" +
                entry("a.cpp", "", "g", 1) + ",\n" + entry("a.cpp", "f", "g", 2) + ",\n" +
                entry("a.cpp", "f", "v", 1) + ",\n" + entry("b.cpp", "f", "g", 1) +
                "\n"
                "  ],\n"
                "  \"write_total\": 2,\n"
                "  \"write_entries\": [\n" +
                entry("a.cpp", "f", "v", 2) +
                "\n"
                "  ]\n"
                "}\n");
  EXPECT_EQ(parseBaseline(serializeBaseline(b), "x"), b);
  EXPECT_TRUE(baselineRecordsWrites(serializeBaseline(b), "x"));
  // Without writes (a baseline made before writes were gated): the reads alone.
  std::string old = serializeBaseline(readsOf(b), std::nullopt, false);
  EXPECT_EQ(old.find("write"), std::string::npos) << old;
  EXPECT_FALSE(baselineRecordsWrites(old, "x"));
  EXPECT_EQ(parseBaseline(old, "x"), readsOf(b));
  EXPECT_EQ(readsOf(b).size(), 4u);
}

// A read and a write of one name in one function are two keys.
TEST(Baseline, WritesAreKeyedApart) {
  Baseline before = {{{"a", "f", "v"}, 1}};
  Baseline after = {{{"a", "f", "v"}, 1}, {{"a", "f", "v", true}, 1}};
  GateResult g = compare(before, after);
  ASSERT_EQ(g.added.size(), 1u);
  EXPECT_EQ(g.added[0].key.str(), "a | f | v (write)");
  EXPECT_TRUE(g.failed());
}

// The root a baseline was made against, relative to the baseline, after the format number;
// a baseline without one has none.
TEST(Baseline, RecordsItsRoot) {
  Baseline b = {{{"a.cpp", "f", "g"}, 1}};
  std::string text = serializeBaseline(b, std::string("src"));
  EXPECT_EQ(text,
            "{\n"
            "  \"gridlock_baseline\": 1,\n"
            "  \"root\": \"src\",\n"
            "  \"total\": 1,\n"
            "  \"entries\": [\n"
            "    {\n      \"file\": \"a.cpp\",\n      \"enclosing\": \"f\",\n      \"name\": "
            "\"g\",\n      \"count\": 1\n    }\n"
            "  ],\n"
            "  \"write_total\": 0,\n"
            "  \"write_entries\": []\n"
            "}\n");
  EXPECT_EQ(parseBaselineRoot(text, "x"), "src");
  EXPECT_EQ(parseBaseline(text, "x"), b);
  EXPECT_EQ(parseBaselineRoot(serializeBaseline(b), "x"), std::nullopt);
  EXPECT_THROW(parseBaselineRoot(R"({"root": 3, "entries": []})", "x"), BaselineError);
}

TEST(Baseline, CompareRoseAddedFell) {
  Baseline before = {{{"a", "f", "g"}, 2}, {{"a", "h", "g"}, 1}, {{"b", "f", "g"}, 3}};
  Baseline after = {{{"a", "f", "g"}, 3}, {{"b", "f", "g"}, 1}, {{"c", "f", "g"}, 1}};
  GateResult g = compare(before, after);
  ASSERT_EQ(g.rose.size(), 1u);
  EXPECT_EQ(g.rose[0].key.str(), "a | f | g");
  EXPECT_EQ(g.rose[0].before, 2u);
  EXPECT_EQ(g.rose[0].after, 3u);
  ASSERT_EQ(g.added.size(), 1u);
  EXPECT_EQ(g.added[0].key.str(), "c | f | g");
  ASSERT_EQ(g.fell.size(), 2u);
  EXPECT_EQ(g.fell[0].key.str(), "a | h | g");
  EXPECT_EQ(g.fell[0].after, 0u);
  EXPECT_EQ(g.fell[1].key.str(), "b | f | g");
  EXPECT_TRUE(g.failed());
  EXPECT_FALSE(compare(after, after).failed());
  EXPECT_FALSE(compare(before, Baseline{}).failed());
}

// Keys the run did not cover neither fall nor leave the baseline; they can still rise.
TEST(Baseline, UncoveredKeysAreKeptNotFallen) {
  Baseline before = {{{"a", "f", "g"}, 2}, {{"b", "f", "g"}, 3}, {{"b", "h", "g"}, 1}};
  Baseline after = {{{"a", "f", "g"}, 1}, {{"b", "f", "g"}, 1}};
  Covers onlyA = [](const BaselineKey& k) { return k.file == "a"; };
  GateResult g = compare(before, after, onlyA);
  ASSERT_EQ(g.fell.size(), 1u);
  EXPECT_EQ(g.fell[0].key.str(), "a | f | g");
  ASSERT_EQ(g.kept.size(), 2u);
  EXPECT_EQ(g.kept[0].key.str(), "b | f | g");
  EXPECT_EQ(g.kept[0].before, 3u);
  EXPECT_EQ(g.kept[1].key.str(), "b | h | g");
  EXPECT_FALSE(g.failed());
  Baseline next = updated(before, after, onlyA);
  EXPECT_EQ(next, (Baseline{{{"a", "f", "g"}, 1}, {{"b", "f", "g"}, 3}, {{"b", "h", "g"}, 1}}));

  GateResult rose = compare(before, {{{"b", "h", "g"}, 2}}, onlyA);
  ASSERT_EQ(rose.rose.size(), 1u);
  EXPECT_EQ(rose.rose[0].key.str(), "b | h | g");
  // Without a coverage, every key is judged, as before.
  EXPECT_EQ(compare(before, after).fell.size(), 3u);
  EXPECT_EQ(updated(before, after), after);
}

TEST(Baseline, FileNamesRoundTripWhateverTheirBytes) {
  Baseline b = {{{"caf\xE9.cpp", "f", "g"}, 1}, {{"100%.cpp", "f", "g"}, 2}};
  std::string text = serializeBaseline(b);
  EXPECT_NE(text.find("\"file\": \"caf%E9.cpp\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"file\": \"100%25.cpp\""), std::string::npos) << text;
  EXPECT_EQ(parseBaseline(text, "x"), b);
  // Written by hand with the raw byte.
  EXPECT_EQ(parseBaseline("{\"entries\": [{\"file\": \"caf\xE9.cpp\", \"enclosing\": \"f\", "
                          "\"name\": \"g\", \"count\": 1}]}",
                          "x"),
            (Baseline{{{"caf\xE9.cpp", "f", "g"}, 1}}));
}

// The error parsing `text` as base.json gives, or "(no error)".
std::string error(const std::string& text) {
  try {
    parseBaseline(text, "base.json");
  } catch (const BaselineError& e) {
    return std::string(e.what());
  }
  return std::string("(no error)");
}

TEST(Baseline, MalformedFilesAreNamed) {
  EXPECT_EQ(error("[]"),
            "base.json: not a gridlock baseline (expected an object with \"entries\")");
  EXPECT_EQ(error(R"({"entries": [{"file": "a", "enclosing": "f", "name": "g", "count": 0}]})"),
            "base.json: /entries/0: \"count\" must be a positive integer of at most 2^53 "
            "(9007199254740992)");
  EXPECT_EQ(error(R"({"entries": [{"file": "a", "name": "g", "count": 1}]})"),
            "base.json: /entries/0: \"enclosing\" must be a string");
  EXPECT_EQ(error(R"({"entries": [{"file": "a", "enclosing": "f", "name": "g", "count": 1},
                                  {"file": "a", "enclosing": "f", "name": "g", "count": 2}]})"),
            "base.json: /entries/1: duplicate entry a | f | g");
  EXPECT_EQ(error(R"({"entries": [], "write_entries": {}})"),
            "base.json: /write_entries: expected an array");
  EXPECT_EQ(error(R"({"entries": [], "write_entries": [{"file": "a", "enclosing": "f",
                                                        "name": "g", "count": -1}]})"),
            "base.json: /write_entries/0: \"count\" must be a positive integer of at most 2^53 "
            "(9007199254740992)");
}

// What a reader that parses JSON numbers as doubles cannot hold exactly, a key no gridlock
// writes (a slip of the pen: "entires") and a format a newer gridlock wrote are bad input
// naming the key, as .gridlock.json's are: never counts read wrong or keys skipped.
TEST(Baseline, LargeCountsUnknownKeysAndNewerFormatsAreErrors) {
  auto entry = [](const std::string& count) {
    return R"({"entries": [{"file": "a", "enclosing": "f", "name": "g", "count": )" + count + "}]}";
  };
  // 2^53 is the largest count; 2^53 + 1 and 2^64 - 1 are refused.
  EXPECT_EQ(parseBaseline(entry("9007199254740992"), "x"),
            (Baseline{{{"a", "f", "g"}, 9007199254740992ull}}));
  const std::string tooLarge =
      "base.json: /entries/0: \"count\" must be a positive integer of at most 2^53 "
      "(9007199254740992)";
  EXPECT_EQ(error(entry("9007199254740993")), tooLarge);
  EXPECT_EQ(error(entry("18446744073709551615")), tooLarge);
  EXPECT_EQ(error(entry("1.5")), tooLarge);
  EXPECT_EQ(error(R"({"gridlock_baseline": 1, "total": 9007199254740993, "entries": []})"),
            "base.json: /total: expected an integer from 0 to 2^53 (9007199254740992)");
  EXPECT_EQ(error(R"({"gridlock_baseline": 1, "entries": [], "entires": []})"),
            "base.json: /entires: unknown key (expected gridlock_baseline, root, total, "
            "entries, write_total, write_entries); did you mean \"entries\"?");
  EXPECT_EQ(error(R"({"entries": [{"file": "a", "enclosing": "f", "name": "g", "count": 1,
                                   "cuont": 2}]})"),
            "base.json: /entries/0/cuont: unknown key (expected file, enclosing, name, count); "
            "did you mean \"count\"?");
  EXPECT_EQ(error(R"({"gridlock_baseline": 2, "entries": []})"),
            "base.json: /gridlock_baseline: format 2 is newer than this gridlock reads (1); a "
            "newer gridlock wrote it: update gridlock");
  EXPECT_EQ(error(R"({"gridlock_baseline": "1", "entries": []})"),
            "base.json: /gridlock_baseline: expected the format version, 1");
  // What gridlock writes reads back.
  Baseline b = {{{"a", "f", "g"}, 3}};
  EXPECT_EQ(parseBaseline(serializeBaseline(b, std::string(".")), "x"), b);
}

}  // namespace
}  // namespace gridlock::analysis
