// The cache's blobs through the gridlock binary: the facts of a header two units include are
// stored once, and a damaged or missing blob is a miss for every unit that names it, with one
// warning, never a wrong result.
#include "cache/entry.h"
#include "cache/fixture_copy.h"
#include "cache/key.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <tuple>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

size_t filesUnder(const std::string& dir) {
  size_t n = 0;
  if (!fs::exists(dir)) return 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

// The blobs of one kind under `dir`: "facts", "deps" or "list".
size_t blobsUnder(const std::string& dir, const std::string& kind) {
  size_t n = 0;
  if (!fs::exists(dir)) return 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() &&
        readFile(e.path().string()).rfind("gridlock-cache-blob 2 " + kind + "\n", 0) == 0)
      ++n;
  return n;
}
size_t factsBlobsUnder(const std::string& dir) { return blobsUnder(dir, "facts"); }

int jsonCount(const std::string& json, const char* what) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j["summary"].contains("cache")) return -1;
  return j["summary"]["cache"][what].get<int>();
}

// Two units, two/a.cpp and two/b.cpp, that include two/shared.h and nothing else. Facts are
// located in three files: shared.h (a class and a function), a.cpp and b.cpp (a function and
// its call of the header's function each).
class BlobCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fx.write("two/shared.h",
             "#pragma once\n"
             "struct Shared {\n"
             "  int value = 0;\n"
             "};\n"
             "inline int shared_twice(int a) { return a * 2; }\n");
    for (const std::string name : {"a", "b"})
      fx.write("two/" + name + ".cpp",
               "#include \"shared.h\"\n"
               "int from_" +
                   name + "(int x) { return shared_twice(x); }\n");
    auto past = fs::file_time_type::clock::now() - std::chrono::minutes(1);
    for (const std::string f : {"two/shared.h", "two/a.cpp", "two/b.cpp"})
      fs::last_write_time(fx.root + "/" + f, past);
    nlohmann::json db = nlohmann::json::array();
    for (const std::string name : {"a", "b"})
      db.push_back({{"directory", fx.root + "/two"},
                    {"file", fx.root + "/two/" + name + ".cpp"},
                    {"command", "clang++ -std=c++20 -c " + fx.root + "/two/" + name + ".cpp"}});
    writeFile(fx.build + "/compile_commands.json", db.dump(2));
  }
  CommandResult scan(const std::string& extra = "") {
    return gridlock("scan --format json" + fx.args() + extra);
  }
  CommandResult truth(const std::string& extra = "") {
    return gridlock("scan --no-cache --format json" + fx.args() + extra);
  }
  // The digests of the facts blobs (or with `deps`, of the dependency blobs) a unit's entry
  // names.
  std::vector<std::string> blobsOf(const std::string& unit, bool deps = false) {
    std::string slot = cache::slotOf(fs::canonical(fx.root).string(), fx.root + "/" + unit,
                                     /*rewriteFacts=*/false);
    std::string bytes = readFile(fx.cacheDir() + "/entries/" + slot.substr(0, 2) + "/" + slot);
    std::string build = bytes.substr(bytes.find('\n') + 1);
    build = build.substr(0, build.find('\n'));
    cache::Decoded d = cache::decodeEntry(bytes, build);
    EXPECT_EQ(d.status, cache::Decoded::Status::Ok) << d.problem;
    // The entry names lists of them.
    std::vector<std::string> out;
    for (const auto& list : deps ? d.entry.depsLists : d.entry.factsLists) {
      cache::DecodedList l = cache::decodeListBlob(readFile(blobPath(list)), build, list);
      EXPECT_TRUE(l.digests) << l.problem;
      if (l.digests) out.insert(out.end(), l.digests->begin(), l.digests->end());
    }
    return out;
  }
  // The dependencies a deps blob holds.
  cache::Deps depsOfBlob(const std::string& digest) {
    std::string bytes = readFile(blobPath(digest));
    std::string build = anyBuild();
    cache::DecodedDeps d = cache::decodeDepsBlob(bytes, build, digest);
    EXPECT_TRUE(d.deps) << d.problem;
    return d.deps ? *d.deps : cache::Deps();
  }
  // The gridlock build that wrote the entries.
  std::string anyBuild() {
    for (const auto& e : fs::recursive_directory_iterator(fx.cacheDir() + "/entries"))
      if (e.is_regular_file()) {
        std::string bytes = readFile(e.path().string());
        std::string build = bytes.substr(bytes.find('\n') + 1);
        return build.substr(0, build.find('\n'));
      }
    return "";
  }
  // The lists a unit's entry names.
  std::vector<std::string> listsOf(const std::string& unit) {
    std::string slot = cache::slotOf(fs::canonical(fx.root).string(), fx.root + "/" + unit,
                                     /*rewriteFacts=*/false);
    auto digests =
        cache::blobsOfEntry(readFile(fx.cacheDir() + "/entries/" + slot.substr(0, 2) + "/" + slot));
    EXPECT_TRUE(digests);
    return digests.value_or(std::vector<std::string>{});
  }
  std::string sharedBlob() {
    std::vector<std::string> a = blobsOf("two/a.cpp"), b = blobsOf("two/b.cpp");
    std::set<std::string> common;
    for (const auto& d : a)
      if (std::find(b.begin(), b.end(), d) != b.end()) common.insert(d);
    EXPECT_EQ(common.size(), 1u);  // shared.h's
    return common.empty() ? "" : *common.begin();
  }
  // The next scan hits one unit, parses the other again and reports what a scan without the
  // cache does.
  void expectOneHitOneMiss() {
    CommandResult t = truth();
    CommandResult next = scan();
    EXPECT_EQ(jsonCount(next.out, "hits"), 1);
    EXPECT_EQ(jsonCount(next.out, "misses"), 1);
    EXPECT_EQ(next.err, t.err);
    EXPECT_EQ(withoutCacheCounts(next.out), withoutCacheCounts(t.out));
  }
  std::string blobPath(const std::string& digest) {
    return fx.cacheDir() + "/blobs/" + digest.substr(0, 2) + "/" + digest;
  }

  FixtureCopy fx;
};

TEST_F(BlobCli, TwoUnitsIncludingOneHeaderStoreItsFactsOnce) {
  CommandResult cold = scan();
  ASSERT_EQ(cold.status, 0) << cold.err;
  EXPECT_EQ(filesUnder(fx.cacheDir() + "/entries"), 2u);
  // shared.h's facts once, a.cpp's and b.cpp's: three blobs.
  EXPECT_EQ(factsBlobsUnder(fx.cacheDir() + "/blobs"), 3u);
  EXPECT_EQ(blobsOf("two/a.cpp").size(), 2u);
  // The dependencies, by directory (none is cut here): the units share every blob but two/'s,
  // which holds a.cpp or b.cpp.
  std::vector<std::string> depsA = blobsOf("two/a.cpp", true), depsB = blobsOf("two/b.cpp", true);
  ASSERT_FALSE(depsA.empty());
  std::set<std::string> all(depsA.begin(), depsA.end());
  all.insert(depsB.begin(), depsB.end());
  auto reads = [&](const std::string& digest, const std::string& file) {
    for (const auto& r : depsOfBlob(digest).reads)
      if (r.path.size() >= file.size() &&
          r.path.compare(r.path.size() - file.size(), file.size(), file) == 0)
        return true;
    return false;
  };
  for (const auto& [mine, theirs, file] :
       {std::tuple(&depsA, &depsB, "/two/a.cpp"), std::tuple(&depsB, &depsA, "/two/b.cpp")}) {
    size_t own = 0, holding = 0;
    for (const auto& d : *mine) {
      bool shared = std::find(theirs->begin(), theirs->end(), d) != theirs->end();
      EXPECT_FALSE(shared && (reads(d, "/two/a.cpp") || reads(d, "/two/b.cpp"))) << d;
      own += !shared;
      holding += !shared && reads(d, file);
    }
    EXPECT_EQ(holding, 1u) << file;
    EXPECT_EQ(own, 1u) << file;
  }
  EXPECT_EQ(blobsUnder(fx.cacheDir() + "/blobs", "deps"), all.size());
  EXPECT_EQ(blobsOf("two/b.cpp").size(), 2u);
  EXPECT_EQ(sharedBlob().size(), 32u);
  // And the lists the two entries name (those of equal runs of digests once).
  std::set<std::string> lists;
  for (const std::string unit : {"two/a.cpp", "two/b.cpp"})
    for (const auto& l : listsOf(unit)) lists.insert(l);
  EXPECT_EQ(blobsUnder(fx.cacheDir() + "/blobs", "list"), lists.size());
  const size_t blobs = 3u + all.size() + lists.size();
  EXPECT_EQ(filesUnder(fx.cacheDir() + "/blobs"), blobs);

  CommandResult warm = scan();
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(jsonCount(warm.out, "hits"), 2);
  CommandResult t = truth();
  EXPECT_EQ(withoutCacheCounts(warm.out), withoutCacheCounts(t.out));
  EXPECT_EQ(warm.err, t.err);
  EXPECT_EQ(filesUnder(fx.cacheDir() + "/blobs"), blobs);  // a hit writes nothing
}

TEST_F(BlobCli, DamagedSharedBlobMissesEveryUnitNamingItWithOneWarning) {
  ASSERT_EQ(scan().status, 0);
  std::string digest = sharedBlob();
  ASSERT_FALSE(digest.empty());
  std::string path = blobPath(digest);
  std::string bytes = readFile(path);
  bytes[bytes.size() - 5] ^= 0x01;
  writeFile(path, bytes);

  CommandResult t = truth();
  ASSERT_EQ(t.status, 0) << t.err;
  // -v lists the cache's misses, and also the pack's entries that matched nothing, one line each.
  CommandResult verbose = truth(" -v");
  CommandResult warm = scan(" -v");
  ASSERT_EQ(warm.status, 0) << warm.err;
  // A blob has no checksum of its own (packed.h): the flipped byte stops the decompressor, or
  // gives other bytes than the digest names. Which one depends on where it fell.
  const std::string problem = warm.err.find("(cannot decompress)") != std::string::npos
                                  ? "cannot decompress"
                                  : "digest mismatch";
  EXPECT_EQ(withoutCacheCounts(warm.out), withoutCacheCounts(t.out));
  EXPECT_EQ(jsonCount(warm.out, "hits"), 0);
  EXPECT_EQ(jsonCount(warm.out, "misses"), 2);
  EXPECT_EQ(warm.err, "gridlock: warning: cache: blob " + path + " is corrupt (" + problem +
                          "); the files that use it are scanned again\n"
                          "gridlock: cache: 0 hits, 2 misses\n"
                          "gridlock: cache: two/a.cpp: blob " +
                          digest + " corrupt (" + problem +
                          ")\n"
                          "gridlock: cache: two/b.cpp: blob " +
                          digest + " corrupt (" + problem + ")\n" + verbose.err);
  // The parses stored it again.
  CommandResult again = scan();
  EXPECT_EQ(jsonCount(again.out, "hits"), 2);
  EXPECT_EQ(again.err, t.err);
  EXPECT_EQ(withoutCacheCounts(again.out), withoutCacheCounts(t.out));

  fs::remove(path);
  CommandResult missing = scan(" -v");
  EXPECT_EQ(withoutCacheCounts(missing.out), withoutCacheCounts(t.out));
  EXPECT_EQ(missing.err, "gridlock: warning: cache: blob " + path +
                             " is missing; the files that use it are scanned again\n"
                             "gridlock: cache: 0 hits, 2 misses\n"
                             "gridlock: cache: two/a.cpp: blob " +
                             digest +
                             " missing\n"
                             "gridlock: cache: two/b.cpp: blob " +
                             digest + " missing\n" + verbose.err);
  EXPECT_TRUE(fs::exists(path));

  // A dependency blob both units name (one not of two/), damaged: the same.
  std::vector<std::string> depsA = blobsOf("two/a.cpp", true), depsB = blobsOf("two/b.cpp", true);
  std::string sharedDeps;
  for (const auto& d : depsA)
    if (std::find(depsB.begin(), depsB.end(), d) != depsB.end()) sharedDeps = d;
  ASSERT_FALSE(sharedDeps.empty());
  bytes = readFile(blobPath(sharedDeps));
  writeFile(blobPath(sharedDeps), bytes.substr(0, bytes.size() - 1));
  CommandResult deps = scan(" -v");
  EXPECT_EQ(withoutCacheCounts(deps.out), withoutCacheCounts(t.out));
  EXPECT_EQ(deps.err, "gridlock: warning: cache: blob " + blobPath(sharedDeps) +
                          " is corrupt (truncated); the files that use it are scanned again\n"
                          "gridlock: cache: 0 hits, 2 misses\n"
                          "gridlock: cache: two/a.cpp: blob " +
                          sharedDeps +
                          " corrupt (truncated)\n"
                          "gridlock: cache: two/b.cpp: blob " +
                          sharedDeps + " corrupt (truncated)\n" + verbose.err);
  EXPECT_EQ(jsonCount(scan().out, "hits"), 2);

  // A list a.cpp's entry names, damaged: a miss for each unit that names it, the same way.
  std::vector<std::string> listsA = listsOf("two/a.cpp"), listsB = listsOf("two/b.cpp");
  ASSERT_FALSE(listsA.empty());
  const std::string list = listsA.back();
  const bool both = std::find(listsB.begin(), listsB.end(), list) != listsB.end();
  bytes = readFile(blobPath(list));
  writeFile(blobPath(list), bytes.substr(0, bytes.size() - 1));
  CommandResult listed = scan(" -v");
  EXPECT_EQ(withoutCacheCounts(listed.out), withoutCacheCounts(t.out));
  std::string missed = "gridlock: cache: two/a.cpp: blob " + list + " corrupt (truncated)\n";
  if (both) missed += "gridlock: cache: two/b.cpp: blob " + list + " corrupt (truncated)\n";
  EXPECT_EQ(listed.err, "gridlock: warning: cache: blob " + blobPath(list) +
                            " is corrupt (truncated); the files that use it are scanned again\n" +
                            (both ? "gridlock: cache: 0 hits, 2 misses\n"
                                  : "gridlock: cache: 1 hit, 1 miss\n") +
                            missed + verbose.err);
  EXPECT_EQ(jsonCount(scan().out, "hits"), 2);
}

size_t bytesUnder(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) n += e.file_size();
  return n;
}

// A bound one byte short of what two units take: the run that writes evicts the least
// recently used entry and the blob only it names, never shared.h's, which the other names.
TEST_F(BlobCli, EvictionNeverRemovesABlobAnEntryNames) {
  ASSERT_EQ(scan().status, 0);
  size_t total = bytesUnder(fx.cacheDir() + "/entries") + bytesUnder(fx.cacheDir() + "/blobs");
  // An appended comment: a.cpp is parsed again and its entry written again (same size, same
  // facts and blobs), so the run evicts.
  fx.write("two/a.cpp", fx.read("two/a.cpp") + "// edited\n");
  CommandResult small = scan(" --jobs 1 --cache-size " + std::to_string(total - 1));
  ASSERT_EQ(small.status, 0) << small.err;
  EXPECT_EQ(filesUnder(fx.cacheDir() + "/entries"), 1u);
  EXPECT_EQ(factsBlobsUnder(fx.cacheDir() + "/blobs"), 2u);
  std::string shared;
  for (const std::string unit : {"two/a.cpp", "two/b.cpp"}) {
    std::string slot = cache::slotOf(fs::canonical(fx.root).string(), fx.root + "/" + unit, false);
    if (!fs::exists(fx.cacheDir() + "/entries/" + slot.substr(0, 2) + "/" + slot)) continue;
    std::vector<std::string> blobs = blobsOf(unit);
    ASSERT_EQ(blobs.size(), 2u);
    for (const auto& d : blobs) EXPECT_TRUE(fs::exists(blobPath(d))) << unit << " " << d;
    for (const auto& d : blobsOf(unit, true)) EXPECT_TRUE(fs::exists(blobPath(d))) << unit;
  }
  expectOneHitOneMiss();
}

// The Python build (gridlock-python) shares a cache with the full build and keeps it within
// its bound by what the full build's entries name: it reads their packed lists without LLVM.
// The two C++ units' entries, a's the least recently used, and a two-module Python project's
// entries (P bytes, measured in a cache of their own: a few hundred bytes each); the bound one byte
// short of all of it. Past it, the Python run evicts a's entry and the blobs only it names (a's
// facts, its lists), as the full build does with the C++ units alone (above): b's entry and every
// blob it names stay, so the full build's next scan hits b and parses a again.
TEST_F(BlobCli, ThePythonBuildEvictsTheFullBuildsEntriesByWhatTheyName) {
  const std::string py = fx.dir + "/py";
  fs::create_directories(py);
  writeFile(py + "/gridlock.json",
            R"({"name": "tiny", "scope": {"include": ["**"]}, "accessors": [)"
            R"({"python": "state.get_group", "kind": "accessor", "group": "tp",)"
            R"( "yields": "value"}]})");
  writeFile(py + "/state.py", "def get_group():\n    return None\n");
  writeFile(py + "/use.py", "import state\n\n\ndef f():\n    return state.get_group()\n");
  auto lean = [&](const std::string& cacheDir, const std::string& size) {
    return runCommand(std::string(GRIDLOCK_PYTHON_BIN) + " scan -q --rules " + py +
                      "/gridlock.json --root " + py + " --cache-dir " + cacheDir +
                      " --cache-size " + size);
  };
  const std::string alone = fx.dir + "/py-cache";
  ASSERT_EQ(lean(alone, "1G").status, 0);
  size_t python = bytesUnder(alone + "/entries");
  size_t pythonEntries = filesUnder(alone + "/entries");
  ASSERT_EQ(pythonEntries, 3u);  // the modules' facts, their stamps, the program

  ASSERT_EQ(scan().status, 0);
  size_t total = bytesUnder(fx.cacheDir() + "/entries") + bytesUnder(fx.cacheDir() + "/blobs");
  auto entryOf = [&](const std::string& unit) {
    std::string slot = cache::slotOf(fs::canonical(fx.root).string(), fx.root + "/" + unit, false);
    return fx.cacheDir() + "/entries/" + slot.substr(0, 2) + "/" + slot;
  };
  std::vector<std::string> bBlobs = blobsOf("two/b.cpp"), bDeps = blobsOf("two/b.cpp", true),
                           bLists = listsOf("two/b.cpp");
  auto now = fs::file_time_type::clock::now();
  fs::last_write_time(entryOf("two/a.cpp"), now - std::chrono::minutes(3));
  fs::last_write_time(entryOf("two/b.cpp"), now - std::chrono::minutes(2));

  CommandResult bounded = lean(fx.cacheDir(), std::to_string(total + python - 1));
  ASSERT_EQ(bounded.status, 0) << bounded.err;
  EXPECT_FALSE(fs::exists(entryOf("two/a.cpp")));
  EXPECT_TRUE(fs::exists(entryOf("two/b.cpp")));
  EXPECT_EQ(filesUnder(fx.cacheDir() + "/entries"), 1 + pythonEntries);
  for (const auto& d : bBlobs) EXPECT_TRUE(fs::exists(blobPath(d))) << "facts " << d;
  for (const auto& d : bDeps) EXPECT_TRUE(fs::exists(blobPath(d))) << "deps " << d;
  for (const auto& d : bLists) EXPECT_TRUE(fs::exists(blobPath(d))) << "list " << d;
  EXPECT_EQ(factsBlobsUnder(fx.cacheDir() + "/blobs"), 2u);  // shared.h's and b.cpp's

  expectOneHitOneMiss();
}

}  // namespace
}  // namespace gridlock::test
