// Facts split by the file they are in (facts/by_file.h), the blobs the cache stores them in,
// and the index's merge of units that share them: a split unit joins back to exactly its
// facts, a file's facts that several units share are merged once, and the inventory equals
// that of the whole units.
#include "facts/by_file.h"
#include "cache/deep_compare.h"
#include "cache/entry.h"
#include "cache/packed.h"
#include "cache/store.h"
#include "index/inventory.h"
#include "support/file_io.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <map>

#include <chrono>
#include <filesystem>

namespace gridlock::test {
namespace {

using namespace gridlock::facts;
namespace fs = std::filesystem;

Read readAt(const std::string& file, unsigned line, const std::string& name) {
  Read r;
  r.file = file;
  r.line = line;
  r.column = 3;
  r.name = name;
  r.spelling = file + ":" + std::to_string(line);
  return r;
}

FunctionFact function(const std::string& usr, const std::string& file, unsigned line,
                      const std::string& param) {
  FunctionFact f;
  f.usr = usr;
  f.name = usr;
  f.file = file;
  f.line = line;
  f.params = {{param, "int", false, ""}};
  return f;
}

// One unit of `main` including shared.h: its lists interleave the two files, and one function
// is declared in the header (parameter `a`) and defined in the main file (parameter `x`).
TuFacts unitOf(const std::string& main) {
  TuFacts tu;
  tu.mainFile = main;
  tu.reads = {readAt("shared.h", 2, "get_tp"), readAt(main, 5, "get_pp"),
              readAt("shared.h", 9, "get_dp")};
  tu.exemptReads = {readAt("helper.h", 4, "get_world")};
  tu.badSuppressions = {{main, 7, 12, "// gridlock: allow", "no reason"}};
  tu.digests = {{"shared.h", "11"}, {main, "22"}};
  tu.functions = {function("c:@F@f#I#", "shared.h", 3, "a"), function("c:@F@g#", main, 4, "y"),
                  function("c:@F@f#I#", main, 8, "x")};
  tu.classes = {{"c:@S@C", "C", {}, "shared.h", 1}};
  ClassBodyFact body;
  body.usr = "c:@S@C";
  body.file = "shared.h";
  body.memberAt = 40;
  tu.classBodies = {body};
  SiteFact s;
  s.calleeUsr = "c:@F@f#I#";
  s.file = main;
  s.line = 9;
  tu.sites = {s};
  s.file = "shared.h";
  s.line = 10;
  tu.sites.push_back(s);
  ParamListFact l;
  l.usr = "c:@F@f#I#";
  l.file = "shared.h";
  l.lparen = 30;
  tu.paramLists = {l};
  l.file = main;
  l.lparen = 80;
  tu.paramLists.push_back(l);
  CallFact c;
  c.calleeUsr = "c:@F@f#I#";
  c.file = main;
  c.rparen = 90;
  tu.calls = {c};
  c.file = "shared.h";
  c.rparen = 40;
  tu.calls.push_back(c);
  tu.dependentCalls = {{"h", "shared.h", 11, 120}};
  tu.addressTaken = {"c:@F@g#"};
  tu.skipped = {{"TESTING", "shared.h", 12, 130}};
  tu.includes = {"helper.h", "shared.h"};
  tu.rulesSeen = {"function get_tp"};
  tu.notes = {"a note"};
  return tu;
}

TEST(ByFile, SplitThenJoinGivesTheUnitsFactsBackInTheirOrder) {
  TuFacts original = unitOf("a.cpp");
  TuFacts unit = original;
  ByFile byFile = splitByFile(unit);
  // shared.h, a.cpp, helper.h: in the order the lists first name them.
  ASSERT_EQ(byFile.files.size(), 3u);
  EXPECT_EQ(byFile.files[0].facts->reads.size(), 2u);
  EXPECT_EQ(byFile.files[1].facts->reads.size(), 1u);
  EXPECT_EQ(byFile.files[2].facts->exemptReads.size(), 1u);
  EXPECT_EQ(byFile.files[0].facts->digests,
            (std::map<std::string, std::string>{{"shared.h", "11"}}));
  // What stays with the unit: nothing located.
  EXPECT_TRUE(unit.reads.empty());
  EXPECT_TRUE(unit.functions.empty());
  EXPECT_TRUE(unit.digests.empty());
  EXPECT_EQ(unit.skipped.size(), 1u);
  EXPECT_EQ(unit.includes.size(), 2u);
  EXPECT_EQ(checkRuns(byFile), "");
  joinByFile(unit, byFile);
  EXPECT_EQ(differences(unit, original), std::vector<std::string>{});
}

TEST(ByFile, RunsThatDoNotCoverTheFactsAreDamage) {
  TuFacts unit = unitOf("a.cpp");
  ByFile byFile = splitByFile(unit);
  ByFile shortRun = byFile;
  shortRun.runs.reads.back() -= 1;
  EXPECT_EQ(checkRuns(shortRun), "runs do not cover a file's facts");
  ByFile noFile = byFile;
  noFile.runs.functions[0] = 7;
  EXPECT_EQ(checkRuns(noFile), "a run names no file");
  ByFile odd = byFile;
  odd.runs.sites.pop_back();
  EXPECT_EQ(checkRuns(odd), "runs of odd length");
}

// Two units that share shared.h's facts, split with digests as the cache gives them.
std::vector<UnitFacts> splitUnits(std::vector<TuFacts> tus) {
  std::vector<UnitFacts> out;
  for (auto& tu : tus) {
    UnitFacts u;
    u.tu = std::move(tu);
    ByFile byFile = splitByFile(u.tu);
    for (auto& f : byFile.files) f.digest = cache::encodeBlob(*f.facts, "build-id 1").digest;
    u.byFile = std::make_shared<const ByFile>(std::move(byFile));
    out.push_back(std::move(u));
  }
  return out;
}

TEST(ByFile, MergeOfSplitUnitsEqualsMergeOfWholeUnits) {
  std::vector<TuFacts> tus = {unitOf("a.cpp"), unitOf("b.cpp")};
  std::vector<UnitFacts> units = splitUnits(tus);
  // shared.h's and helper.h's facts are one blob for both units; each main file its own.
  ASSERT_EQ(units[0].byFile->files.size(), 3u);
  EXPECT_EQ(units[0].byFile->files[0].digest, units[1].byFile->files[0].digest);
  EXPECT_NE(units[0].byFile->files[1].digest, units[1].byFile->files[1].digest);

  index::Inventory whole = index::merge(tus, /*rewriteFacts=*/true);
  index::Inventory split = index::merge(std::move(units), /*rewriteFacts=*/true);
  // 3 reads of a.cpp's unit, b.cpp's own one: 4.
  EXPECT_EQ(whole.reads.size(), 4u);
  EXPECT_EQ(differences(split.reads, whole.reads), std::vector<std::string>{});
  EXPECT_EQ(differences(split.exemptReads, whole.exemptReads), std::vector<std::string>{});
  EXPECT_EQ(differences(split.badSuppressions, whole.badSuppressions), std::vector<std::string>{});
  EXPECT_EQ(split.digests, whole.digests);
  EXPECT_EQ(split.filesSeen, whole.filesSeen);
  EXPECT_EQ(split.rulesSeen, whole.rulesSeen);
  EXPECT_EQ(differences(split.program.functions, whole.program.functions),
            std::vector<std::string>{});
  // The header's declaration comes first in both: its parameter name wins.
  EXPECT_EQ(whole.program.functions.at("c:@F@f#I#").params[0].name, "a");
  EXPECT_EQ(differences(split.program.classes, whole.program.classes), std::vector<std::string>{});
  EXPECT_EQ(differences(split.program.sites, whole.program.sites), std::vector<std::string>{});
  EXPECT_EQ(differences(split.rewrite.lists, whole.rewrite.lists), std::vector<std::string>{});
  EXPECT_EQ(differences(split.rewrite.calls, whole.rewrite.calls), std::vector<std::string>{});
  EXPECT_EQ(differences(split.rewrite.dependentCalls, whole.rewrite.dependentCalls),
            std::vector<std::string>{});
  ASSERT_EQ(whole.rewrite.classBodies.size(), 1u);
  EXPECT_EQ(differences(split.rewrite.classBodies, whole.rewrite.classBodies),
            std::vector<std::string>{});
  EXPECT_EQ(split.rewrite.skippedNames, whole.rewrite.skippedNames);
  EXPECT_EQ(split.rewrite.addressTaken, whole.rewrite.addressTaken);
  EXPECT_EQ(split.rewrite.skippedNames.size(), 1u);  // both units skip it
}

TEST(ByFile, ASharedFilesFactsAreMergedOnceWithTheFirstUnit) {
  std::vector<UnitFacts> units = splitUnits({unitOf("a.cpp"), unitOf("b.cpp")});
  // Give the second unit's copy of shared.h other facts under the same digest: the merge
  // must not look at them (it takes the digest's facts from the first unit).
  auto byFile = std::make_shared<ByFile>(*units[1].byFile);
  auto other = std::make_shared<TuFacts>(*byFile->files[0].facts);
  other->reads[0].name = "changed";
  other->reads[1].line = 99;
  byFile->files[0].facts = other;
  units[1].byFile = byFile;
  index::Inventory inv = index::merge(std::move(units));
  ASSERT_EQ(inv.reads.size(), 4u);
  for (const auto& r : inv.reads) {
    EXPECT_NE(r.name, "changed");
    EXPECT_NE(r.line, 99u);
  }
}

// The merge's index of sites by callee (index/program.h): every site once under its callee,
// a callee's sites in the order of the sorted sites (file, line, column), whatever order the
// units gave them in.
TEST(CacheMerge, SitesByCalleeKeepTheSitesOrder) {
  auto site = [](const std::string& callee, const std::string& file, unsigned line) {
    SiteFact s;
    s.calleeUsr = callee;
    s.file = file;
    s.line = line;
    s.column = 1;
    return s;
  };
  index::Program p;
  p.add({}, {}, {site("b", "f.py", 3), site("a", "g.py", 1), site("b", "f.py", 1)});
  p.add({}, {}, {site("a", "f.py", 2), site("b", "f.py", 3)});  // the second b f.py:3 is seen
  p.finish();
  // Sorted: f.py:1 b, f.py:2 a, f.py:3 b, g.py:1 a.
  ASSERT_EQ(p.sites.size(), 4u);
  std::vector<std::pair<std::string, size_t>> index(p.sitesByCallee.begin(), p.sitesByCallee.end());
  std::vector<std::pair<std::string, size_t>> expected = {{"a", 1}, {"a", 3}, {"b", 0}, {"b", 2}};
  EXPECT_EQ(index, expected);
}

// Functions and classes once per USR, whatever order a unit gives them in: of a USR given twice
// the first stays, a later one adding only the defaults and parameter names it lacks.
TEST(CacheMerge, TheFirstOfAUsrStaysWhateverTheOrder) {
  auto fn = [](const std::string& usr, unsigned line, bool withDefault) {
    FunctionFact f;
    f.usr = usr;
    f.line = line;
    ParamFact param;
    param.name = withDefault ? "group" : "";
    param.hasDefault = withDefault;
    param.defaultText = withDefault ? "None" : "";
    f.params = {param};
    return f;
  };
  auto cls = [](const std::string& usr, unsigned line) {
    ClassFact c;
    c.usr = usr;
    c.line = line;
    return c;
  };
  index::Program p;
  p.add({fn("m.f", 1, false), fn("m.a", 2, false), fn("m.f", 3, true), fn("m.c", 4, true)},
        {cls("m.K", 1), cls("m.B", 2), cls("m.K", 3)}, {});
  p.add({fn("m.b", 5, false), fn("m.c", 6, false), fn("l.z", 7, false)}, {cls("m.B", 4)}, {});
  p.finish();
  std::vector<std::string> usrs;
  for (const auto& [usr, f] : p.functions) usrs.push_back(usr + ":" + std::to_string(f.line));
  EXPECT_EQ(usrs, (std::vector<std::string>{"l.z:7", "m.a:2", "m.b:5", "m.c:4", "m.f:1"}));
  const FunctionFact& f = p.functions.at("m.f");
  EXPECT_TRUE(f.params[0].hasDefault);
  EXPECT_EQ(f.params[0].defaultText, "None");
  EXPECT_EQ(f.params[0].name, "group");
  EXPECT_TRUE(p.functions.at("m.c").params[0].hasDefault);  // the first had it
  std::vector<std::string> classes;
  for (const auto& [usr, c] : p.classes) classes.push_back(usr + ":" + std::to_string(c.line));
  EXPECT_EQ(classes, (std::vector<std::string>{"m.B:2", "m.K:1"}));
}

TEST(CacheBlob, RoundTripAndDamage) {
  TuFacts unit = unitOf("a.cpp");
  ByFile byFile = splitByFile(unit);
  cache::Blob blob = cache::encodeBlob(*byFile.files[0].facts, "build-id 1");
  cache::DecodedBlob d = cache::decodeBlob(blob.bytes(), "build-id 1", blob.digest);
  ASSERT_TRUE(d.facts) << d.problem;
  EXPECT_EQ(differences(*d.facts, *byFile.files[0].facts), std::vector<std::string>{});
  // Another build's equal facts are another blob.
  EXPECT_NE(cache::encodeBlob(*byFile.files[0].facts, "build-id 2").digest, blob.digest);
  EXPECT_EQ(cache::decodeBlob(blob.bytes(), "build-id 2", blob.digest).problem, "digest mismatch");
  std::string flipped = blob.bytes();
  flipped[flipped.size() - 3] ^= 0x20;
  // A blob's header has no checksum: damage shows when it is unpacked, or as bytes that do
  // not give the blob's digest (another blob's, whole, under this one's name).
  cache::DecodedBlob f = cache::decodeBlob(flipped, "build-id 1", blob.digest);
  EXPECT_FALSE(f.facts);
  EXPECT_EQ(f.problem, "cannot decompress");
  cache::Blob other = cache::encodeBlob(*byFile.files[1].facts, "build-id 1");
  ASSERT_NE(other.digest, blob.digest);
  EXPECT_EQ(cache::decodeBlob(other.bytes(), "build-id 1", blob.digest).problem, "digest mismatch");
  // The checksum's place says "-": an entry or a facts file, which must have one, refuses it.
  EXPECT_NE(blob.bytes().find(" -\n"), std::string::npos);
  EXPECT_EQ(cache::unpack(blob.bytes().substr(blob.bytes().find('\n') + 1)).problem, "no checksum");
  EXPECT_EQ(
      cache::decodeBlob(blob.bytes().substr(0, blob.bytes().size() - 1), "build-id 1", blob.digest)
          .problem,
      "truncated");
}

TEST(CacheEntry, NamesItsBlobsAndRuns) {
  cache::Entry e;
  e.slot = "ab01";
  e.facts = unitOf("a.cpp");
  e.byFile = splitByFile(e.facts);
  for (auto& f : e.byFile.files) f.digest = cache::encodeBlob(*f.facts, "build-id 1").digest;
  std::vector<cache::Blob> lists = cache::nameBlobs(e, "build-id 1");
  std::string bytes = cache::encodeEntry(e, "build-id 1");
  cache::Decoded d = cache::decodeEntry(bytes, "build-id 1");
  ASSERT_EQ(d.status, cache::Decoded::Status::Ok) << d.problem;
  // The entry names lists, and the lists its three files' blobs, in their order: each list
  // but the last ends at a digest listEndsAt() picks, and no list has a pick before its end.
  EXPECT_TRUE(d.entry.byFile.files.empty());  // read from the lists by the cache
  EXPECT_EQ(d.entry.factsLists, e.factsLists);
  EXPECT_EQ(d.entry.depsLists, std::vector<std::string>{});
  ASSERT_EQ(lists.size(), e.factsLists.size());
  std::vector<std::string> digests, listed;
  for (const auto& f : e.byFile.files) digests.push_back(f.digest);
  for (size_t i = 0; i < lists.size(); ++i) {
    EXPECT_EQ(lists[i].digest, e.factsLists[i]);
    cache::DecodedList l = cache::decodeListBlob(lists[i].bytes(), "build-id 1", lists[i].digest);
    ASSERT_TRUE(l.digests) << l.problem;
    ASSERT_FALSE(l.digests->empty());
    // The last list ends with the last file, whether or not listEndsAt() picks its digest
    // (which depends on the blob's bytes, so on every field the codec writes).
    for (size_t k = 0; k + 1 < l.digests->size(); ++k)
      EXPECT_FALSE(cache::listEndsAt((*l.digests)[k])) << "list " << i << " digest " << k;
    if (i + 1 < lists.size()) EXPECT_TRUE(cache::listEndsAt(l.digests->back())) << "list " << i;
    listed.insert(listed.end(), l.digests->begin(), l.digests->end());
  }
  EXPECT_EQ(listed, digests);
  EXPECT_EQ(d.entry.byFile.runs.functions, e.byFile.runs.functions);
  EXPECT_EQ(d.entry.byFile.runs.reads, (std::vector<std::uint32_t>{0, 1, 1, 1, 0, 1}));
  EXPECT_EQ(d.entry.facts.skipped.size(), 1u);
  EXPECT_EQ(cache::blobsOfEntry(bytes), std::optional<std::vector<std::string>>(e.factsLists));
  EXPECT_EQ(cache::blobsOfEntry("garbage\n\n"), std::nullopt);
}

void age(const std::string& path, int secondsAgo) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(secondsAgo));
}

// Entry A names blobs s and a, entry B names s and b, each through the lists it names; blob o
// is named by none. A is the least recently used. Dropping o is not enough to fit; dropping A
// then takes a and A's list, never s (B names it) nor B's list.
TEST(CacheStore, EvictionKeepsEveryBlobALiveEntryNames) {
  std::string dir = makeTempDir("cache-blobs");
  cache::Store store(dir, 2800);  // keeps at most 2520 bytes
  // 1000 bytes that begin as every blob gridlock writes begins.
  std::string kilo =
      std::string(cache::kBlobMarker) + std::string(1000 - cache::kBlobMarker.size(), 'x');
  for (const char* d : {"ss", "aa", "bb", "oo"}) store.writeBlob(d, kilo);
  std::map<std::string, std::vector<std::string>> listsOf;
  auto entryNaming = [&](const std::string& slot, std::vector<std::string> blobs) {
    cache::Entry e;
    e.slot = slot;
    for (auto& b : blobs) e.byFile.files.push_back({b, nullptr});
    for (const auto& l : cache::nameBlobs(e, "build-id 1")) {
      store.writeBlob(l.digest, l.bytes());
      listsOf[slot].push_back(l.digest);
    }
    return cache::encodeEntry(e, "build-id 1");
  };
  store.write("e1A", entryNaming("e1A", {"ss", "aa"}));
  store.write("e2B", entryNaming("e2B", {"ss", "bb"}));
  ASSERT_LT(fs::file_size(store.pathOf("e1A")), 250u);
  ASSERT_FALSE(listsOf["e1A"].empty());
  ASSERT_FALSE(listsOf["e2B"].empty());
  age(store.pathOf("e1A"), 100);
  age(store.pathOf("e2B"), 50);
  EXPECT_EQ(store.evict(), 1u);
  EXPECT_FALSE(store.read("e1A").has_value());
  EXPECT_TRUE(store.read("e2B").has_value());
  EXPECT_TRUE(store.hasBlob("ss"));
  EXPECT_TRUE(store.hasBlob("bb"));
  EXPECT_FALSE(store.hasBlob("aa"));
  EXPECT_FALSE(store.hasBlob("oo"));
  for (const auto& l : listsOf["e1A"]) EXPECT_FALSE(store.hasBlob(l)) << l;
  for (const auto& l : listsOf["e2B"]) EXPECT_TRUE(store.hasBlob(l)) << l;
  EXPECT_EQ(store.evict(), 0u);  // within the bound: nothing more goes
  EXPECT_TRUE(store.hasBlob("ss"));
  EXPECT_TRUE(store.hasBlob("bb"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gridlock::test
