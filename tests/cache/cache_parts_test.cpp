// The facts cache's parts without a parse: what the recording file system records, how the
// recorded dependencies are checked again, the entry format's defences, and eviction.
#include "cache/check.h"
#include "cache/entry.h"
#include "cache/key.h"
#include "cache/recording_fs.h"
#include "cache/store.h"
#include "support/file_io.h"
#include "support/mapped_file.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>

namespace gridlock::test {
namespace {

using namespace gridlock::cache;
namespace fs = std::filesystem;

// How many blobs a cut directory's dependencies of these names (in their order) make: runs,
// each ended by one that endsDepsBlob() picks, and the rest.
size_t runsOf(const std::vector<std::string>& names) {
  size_t runs = 0;
  for (const auto& n : names) runs += endsDepsBlob(n);
  return runs + !endsDepsBlob(names.back());
}

// The blobs decoded and joined again, last first: any order joins the same.
Deps joinedBack(const std::vector<Blob>& blobs) {
  std::vector<std::shared_ptr<const Deps>> parts;
  for (auto it = blobs.rbegin(); it != blobs.rend(); ++it) {
    DecodedDeps part = decodeDepsBlob(it->bytes(), "build-id 1", it->digest);
    EXPECT_TRUE(part.deps) << part.problem;
    if (part.deps) parts.push_back(part.deps);
  }
  return joinDeps(parts);
}

std::set<std::string> digestsOf(const std::vector<Blob>& blobs) {
  std::set<std::string> out;
  for (const auto& b : blobs) out.insert(b.digest);
  return out;
}

// Sets a file's mtime `secondsAgo` in the past (its ctime, which no program sets back, is
// now: the stamp stays racy for two seconds).
void age(const std::string& path, int secondsAgo) {
  auto t = fs::file_time_type::clock::now() - std::chrono::seconds(secondsAgo);
  fs::last_write_time(path, t);
}

// What a parse of `main` that includes "a.h" through -I inc1 -I inc2 touches: inc1/a.h
// missing, inc2/a.h read, the main file read, one directory listed.
Deps recordParse(const std::string& dir) {
  Recorder rec;
  auto fs = rec.wrap(llvm::vfs::createPhysicalFileSystem());
  EXPECT_TRUE(static_cast<bool>(fs->getBufferForFile(dir + "/main.cpp")));
  EXPECT_FALSE(fs->status(dir + "/inc1/a.h"));
  EXPECT_TRUE(static_cast<bool>(fs->getBufferForFile(dir + "/inc2/a.h")));
  EXPECT_TRUE(fs->exists(dir + "/inc2"));
  std::error_code ec;
  size_t n = 0;
  for (auto it = fs->dir_begin(dir + "/inc2", ec); !ec && it != llvm::vfs::directory_iterator();
       it.increment(ec))
    ++n;
  EXPECT_EQ(n, 1u);
  return rec.finish();
}

class CacheParts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = makeTempDir("cache-parts");
    fs::create_directories(dir + "/inc1");
    fs::create_directories(dir + "/inc2");
    writeFile(dir + "/main.cpp", "#include \"a.h\"\n");
    writeFile(dir + "/inc2/a.h", "int a;\n");
    for (const char* p : {"/main.cpp", "/inc2/a.h", "/inc1", "/inc2"}) age(dir + p, 60);
  }
  void TearDown() override { fs::remove_all(dir); }

  CheckResult recheck(const Deps& d) {
    FileView view(llvm::vfs::createPhysicalFileSystem());
    return check(d, view, dir + "/main.cpp", [&](const std::string& p) {
      return p.rfind(dir + "/", 0) == 0 ? p.substr(dir.size() + 1) : p;
    });
  }

  std::string dir;
};

TEST_F(CacheParts, RecordsReadsLookupsAndListings) {
  Deps d = recordParse(dir);
  ASSERT_EQ(d.reads.size(), 2u);
  EXPECT_EQ(d.reads[0].path, dir + "/inc2/a.h");
  EXPECT_EQ(d.reads[0].digest, "1ccb9ebc08e51c65b99fa5f74657100a");  // md5sum of "int a;\n"
  // Its mtime is a minute old, but its ctime, which age() cannot set back, is now.
  EXPECT_NE(d.reads[0].stamp.ctimeNs, 0);
  EXPECT_TRUE(d.reads[0].racy);
  EXPECT_EQ(d.reads[1].path, dir + "/main.cpp");
  EXPECT_EQ(d.directories, std::vector<std::string>{dir + "/inc2"});
  ASSERT_EQ(d.missing.size(), 1u);
  EXPECT_EQ(d.missing[0].dir, dir + "/inc1");
  EXPECT_TRUE(d.missing[0].dirExists);
  EXPECT_EQ(d.missing[0].names, std::vector<std::string>{"a.h"});
  ASSERT_EQ(d.listings.size(), 1u);
  EXPECT_EQ(d.listings[0].dir, dir + "/inc2");
}

TEST_F(CacheParts, UnchangedTreeIsFresh) {
  Deps d = recordParse(dir);
  // Racy (their ctimes are now): the digests and the missing names decide.
  CheckResult r = recheck(d);
  EXPECT_TRUE(r.fresh) << r.reason;
  // Recorded long ago (not racy): the equal stamps are trusted, nothing to restamp.
  for (auto& read : d.reads) read.racy = false;
  for (auto& m : d.missing) m.racy = false;
  r = recheck(d);
  EXPECT_TRUE(r.fresh) << r.reason;
  EXPECT_FALSE(r.restamp);
}

TEST_F(CacheParts, ChangedHeaderIsNamed) {
  Deps d = recordParse(dir);
  writeFile(dir + "/inc2/a.h", "int b;\n");  // same size
  CheckResult r = recheck(d);
  EXPECT_FALSE(r.fresh);
  EXPECT_EQ(r.reason, "header inc2/a.h changed");
}

TEST_F(CacheParts, ChangedSourceIsNamedFirst) {
  Deps d = recordParse(dir);
  writeFile(dir + "/inc2/a.h", "int b;\n");
  writeFile(dir + "/main.cpp", "#include \"a.h\" // x\n");
  EXPECT_EQ(recheck(d).reason, "source changed");
}

TEST_F(CacheParts, TouchedHeaderIsFreshWithNewStamps) {
  Deps d = recordParse(dir);
  age(dir + "/inc2/a.h", 30);  // same bytes, another mtime
  CheckResult r = recheck(d);
  EXPECT_TRUE(r.fresh) << r.reason;
  EXPECT_TRUE(r.restamp);
  EXPECT_NE(r.deps.reads[0].stamp, d.reads[0].stamp);
  EXPECT_TRUE(recheck(r.deps).fresh);
}

TEST_F(CacheParts, HeaderCreatedEarlierOnTheSearchPathShadows) {
  Deps d = recordParse(dir);
  writeFile(dir + "/inc1/a.h", "int shadow;\n");
  CheckResult r = recheck(d);
  EXPECT_FALSE(r.fresh);
  EXPECT_EQ(r.reason, "new file inc1/a.h on the search path");
}

TEST_F(CacheParts, UnrelatedFileInASearchedDirectoryIsFresh) {
  Deps d = recordParse(dir);
  writeFile(dir + "/inc1/other.h", "int other;\n");
  CheckResult r = recheck(d);
  EXPECT_TRUE(r.fresh) << r.reason;
  EXPECT_TRUE(r.restamp);  // inc1's stamp changed; its missing names were looked up again
}

TEST_F(CacheParts, RemovedHeaderIsNamed) {
  Deps d = recordParse(dir);
  fs::remove(dir + "/inc2/a.h");
  EXPECT_EQ(recheck(d).reason, "header inc2/a.h removed");
}

TEST_F(CacheParts, RacyStampIsNotTrusted) {
  age(dir + "/inc2/a.h", 0);  // modified now: within the stamp's granularity of the parse
  Deps d = recordParse(dir);
  EXPECT_TRUE(d.reads[0].racy);
  // Same size, same mtime (restored), other bytes: only the digest can tell.
  auto mtime = fs::last_write_time(dir + "/inc2/a.h");
  writeFile(dir + "/inc2/a.h", "int z;\n");
  fs::last_write_time(dir + "/inc2/a.h", mtime);
  EXPECT_EQ(recheck(d).reason, "header inc2/a.h changed");
}

// Waits until the clock that stamps `path`'s ctime has moved past it (a coarse clock ticks every
// few milliseconds), so that a change made now gets another ctime.
void waitForCtimeTick(const std::string& path) {
  struct stat was;
  ASSERT_EQ(::stat(path.c_str(), &was), 0);
  std::string probe = path + ".tick";
  for (;;) {
    writeFile(probe, "");
    struct stat now;
    ASSERT_EQ(::stat(probe.c_str(), &now), 0);
    if (std::pair(now.st_ctim.tv_sec, now.st_ctim.tv_nsec) >
        std::pair(was.st_ctim.tv_sec, was.st_ctim.tv_nsec))
      break;
  }
  fs::remove(probe);
}

// Same size, the mtime put back (touch -d, a checkout tool), a stamp recorded long ago (not
// racy): the ctime moved, so the digest is compared.
TEST_F(CacheParts, SameSizeEditWithTheMtimePutBackIsSeen) {
  Deps d = recordParse(dir);
  ASSERT_EQ(d.reads[0].path, dir + "/inc2/a.h");
  d.reads[0].racy = false;
  waitForCtimeTick(dir + "/inc2/a.h");
  auto mtime = fs::last_write_time(dir + "/inc2/a.h");
  writeFile(dir + "/inc2/a.h", "int z;\n");
  fs::last_write_time(dir + "/inc2/a.h", mtime);
  EXPECT_EQ(recheck(d).reason, "header inc2/a.h changed");
}

// Dependencies split into blobs and joined again are the recorded ones, in their order: here
// main.cpp (dir), inc2/a.h (dir/inc2), inc1/a.h missing (dir/inc1).
TEST_F(CacheParts, DependenciesByDirectoryJoinBackExactly) {
  Deps d = recordParse(dir);
  std::vector<Blob> blobs = depsBlobs(d, "build-id 1");
  // One blob per directory: none has more than kWholeDirectory dependencies.
  std::map<std::string, size_t> dirs;
  auto dirOf = [](const std::string& p) { return p.substr(0, p.rfind('/')); };
  for (const auto& r : d.reads) ++dirs[dirOf(r.path)];
  for (const auto& f : d.files) ++dirs[dirOf(f)];
  for (const auto& f : d.directories) ++dirs[dirOf(f)];
  for (const auto& m : d.missing) dirs[m.dir] += m.names.size();
  for (const auto& l : d.listings) ++dirs[l.dir];
  for (const auto& [dir, n] : dirs) ASSERT_LE(n, kWholeDirectory) << dir;
  EXPECT_EQ(blobs.size(), dirs.size());
  Deps joined = joinedBack(blobs);
  ASSERT_EQ(joined.reads.size(), d.reads.size());
  for (size_t i = 0; i < d.reads.size(); ++i) {
    EXPECT_EQ(joined.reads[i].path, d.reads[i].path);
    EXPECT_EQ(joined.reads[i].stamp, d.reads[i].stamp);
    EXPECT_EQ(joined.reads[i].digest, d.reads[i].digest);
  }
  EXPECT_EQ(joined.files, d.files);
  EXPECT_EQ(joined.directories, d.directories);
  ASSERT_EQ(joined.missing.size(), d.missing.size());
  for (size_t i = 0; i < d.missing.size(); ++i) {
    EXPECT_EQ(joined.missing[i].dir, d.missing[i].dir);
    EXPECT_EQ(joined.missing[i].names, d.missing[i].names);
  }
  ASSERT_EQ(joined.listings.size(), d.listings.size());
  EXPECT_EQ(joined.listings[0].digest, d.listings[0].digest);
  EXPECT_TRUE(recheck(joined).fresh);
}

// Dependencies of a unit that reads 100 headers of one directory and looks up 40 missing
// names in another, with a small directory beside: `skipRead`/`skipName` leave one out (-1:
// none).
Deps largeDirectories(int skipRead, int skipName) {
  Deps d;
  for (int i = 0; i < 100; ++i)
    if (i != skipRead) {
      std::string n = std::to_string(100 + i);
      d.reads.push_back({"/lib/h" + n + ".h", {i, 1000 + i, 1, 2}, "digest-" + n, false});
    }
  for (int i = 0; i < 3; ++i)
    d.reads.push_back({"/small/s" + std::to_string(i) + ".h", {i, 7, 1, 3}, "s", false});
  Missing m;
  m.dir = "/miss";
  m.dirExists = true;
  m.dirStamp = {4096, 5, 1, 4};
  for (int i = 0; i < 40; ++i)
    if (i != skipName) m.names.push_back("n" + std::to_string(100 + i) + ".h");
  d.missing.push_back(m);
  return d;
}

// Two units that read all of a large directory but one file, or look up all of its missing
// names but one, share every blob of it but the one that held the difference.
TEST(CacheDeps, LargeDirectoriesCutWhereTheNamesSaySoUnitsShareAllButTheDifference) {
  std::vector<std::string> lib, miss;
  for (int i = 0; i < 100; ++i) lib.push_back("/lib/h" + std::to_string(100 + i) + ".h");
  for (int i = 0; i < 40; ++i) miss.push_back("/miss/n" + std::to_string(100 + i) + ".h");
  ASSERT_GE(runsOf(lib), 5u);  // the names do cut them
  ASSERT_GE(runsOf(miss), 2u);
  // Leave out a read and a name that end no run, and are not the last of theirs: only the
  // run around each changes.
  auto cutsFrom = [](const std::vector<std::string>& v, size_t from) {
    size_t n = 0;
    for (size_t i = from; i < v.size(); ++i) n += endsDepsBlob(v[i]);
    return n;
  };
  size_t read = 0, name = 0;
  while (endsDepsBlob(lib[read])) ++read;
  while (endsDepsBlob(miss[name])) ++name;
  ASSERT_GE(cutsFrom(lib, read), 1u);
  ASSERT_GE(cutsFrom(miss, name), 1u);

  Deps all = largeDirectories(-1, -1);
  std::vector<Blob> a = depsBlobs(all, "build-id 1");
  std::vector<Blob> b = depsBlobs(largeDirectories(int(read), int(name)), "build-id 1");
  // /small (3 reads, whole), /lib's runs and /miss's.
  EXPECT_EQ(a.size(), 1 + runsOf(lib) + runsOf(miss));
  EXPECT_EQ(b.size(), a.size());
  std::set<std::string> da = digestsOf(a), db = digestsOf(b), shared;
  std::set_intersection(da.begin(), da.end(), db.begin(), db.end(),
                        std::inserter(shared, shared.begin()));
  EXPECT_EQ(shared.size(), a.size() - 2);

  // Joined again (in any order), the runs of missing names are the one record they were.
  Deps joined = joinedBack(a);
  ASSERT_EQ(joined.reads.size(), all.reads.size());
  for (size_t i = 0; i < all.reads.size(); ++i) {
    EXPECT_EQ(joined.reads[i].path, all.reads[i].path);
    EXPECT_EQ(joined.reads[i].stamp, all.reads[i].stamp);
  }
  ASSERT_EQ(joined.missing.size(), 1u);
  EXPECT_EQ(joined.missing[0].names, all.missing[0].names);
  EXPECT_EQ(joined.missing[0].dirStamp, all.missing[0].dirStamp);
  EXPECT_TRUE(joined.missing[0].dirExists);
}

Entry sampleEntry() {
  Entry e;
  e.slot = slotOf("/root", "/root/a.cpp", false);
  e.rulesDigest = "r";
  e.command = commandKey({{"/build", "/root/a.cpp", {"clang++", "-DX=1", "-c", "a.cpp"}}});
  e.links = linksKey({{"/elsewhere/b.cpp", "b.cpp"}});
  e.deps.reads = {{"/root/a.cpp", {7, 100, 1, 2}, "d", false}};
  e.facts.mainFile = "a.cpp";
  e.facts.notes = {"a note"};
  return e;
}

TEST(CacheEntry, RoundTrip) {
  Entry e = sampleEntry();
  // The dependencies travel as blobs, by directory; the entry names a list of them.
  std::vector<Blob> deps = depsBlobs(e.deps, "build-id 1");
  ASSERT_EQ(deps.size(), 1u);  // all in /root
  e.depsDigests = {deps[0].digest};
  std::vector<Blob> lists = nameBlobs(e, "build-id 1");
  ASSERT_EQ(lists.size(), 1u);  // no facts blob, one dependency blob
  EXPECT_EQ(e.factsLists, std::vector<std::string>{});
  EXPECT_EQ(e.depsLists, std::vector<std::string>{lists[0].digest});
  DecodedList list = decodeListBlob(lists[0].bytes(), "build-id 1", lists[0].digest);
  ASSERT_TRUE(list.digests) << list.problem;
  EXPECT_EQ(*list.digests, std::vector<std::string>{deps[0].digest});
  EXPECT_EQ(digestsOfList(lists[0].bytes()),
            std::optional(std::vector<std::string>{deps[0].digest}));
  EXPECT_EQ(decodeListBlob(lists[0].bytes(), "build-id 2", lists[0].digest).problem,
            "digest mismatch");
  EXPECT_EQ(digestsOfList(deps[0].bytes()), std::nullopt);  // not a list
  std::string bytes = encodeEntry(e, "build-id 1");
  Decoded d = decodeEntry(bytes, "build-id 1");
  ASSERT_EQ(d.status, Decoded::Status::Ok) << d.problem;
  EXPECT_EQ(d.entry.slot, sampleEntry().slot);
  EXPECT_EQ(d.entry.command, sampleEntry().command);
  EXPECT_EQ(d.entry.links, sampleEntry().links);
  EXPECT_FALSE(d.entry.links.empty());
  EXPECT_TRUE(d.entry.deps.reads.empty());
  EXPECT_EQ(d.entry.depsDigests, std::vector<std::string>{});  // read from the list
  ASSERT_EQ(d.entry.depsLists, std::vector<std::string>{lists[0].digest});
  EXPECT_EQ(d.entry.factsLists, std::vector<std::string>{});
  DecodedDeps part = decodeDepsBlob(deps[0].bytes(), "build-id 1", deps[0].digest);
  ASSERT_TRUE(part.deps) << part.problem;
  Deps joined = joinDeps({part.deps});
  ASSERT_EQ(joined.reads.size(), 1u);
  EXPECT_EQ(joined.reads[0].stamp, (Stamp{7, 100, 1, 2}));
  EXPECT_EQ(decodeDepsBlob(deps[0].bytes(), "build-id 2", deps[0].digest).problem,
            "digest mismatch");
  EXPECT_EQ(d.entry.facts.notes, std::vector<std::string>{"a note"});
}

TEST(CacheEntry, DamageIsCorruptNeverFacts) {
  std::string bytes = encodeEntry(sampleEntry(), "build-id 1");
  Decoded truncated = decodeEntry(bytes.substr(0, bytes.size() - 3), "build-id 1");
  EXPECT_EQ(truncated.status, Decoded::Status::Corrupt);
  EXPECT_EQ(truncated.problem, "truncated");

  std::string flipped = bytes;
  flipped[flipped.size() - 5] ^= 0x40;
  Decoded f = decodeEntry(flipped, "build-id 1");
  EXPECT_EQ(f.status, Decoded::Status::Corrupt);
  EXPECT_EQ(f.problem, "checksum mismatch");

  EXPECT_EQ(decodeEntry("", "build-id 1").problem, "truncated header");
  EXPECT_EQ(decodeEntry("garbage\n\n\n", "build-id 1").problem, "not a gridlock cache entry");
}

TEST(CacheEntry, AnotherBuildIsForeign) {
  std::string bytes = encodeEntry(sampleEntry(), "build-id 1");
  Decoded d = decodeEntry(bytes, "build-id 2");
  EXPECT_EQ(d.status, Decoded::Status::Foreign);
  EXPECT_EQ(d.problem, "written by build-id 1");
}

TEST(CacheKey, KeysHoldAnyBytes) {
  // Latin-1 names (not UTF-8) are keys like any other, and names that differ in one byte
  // give different keys.
  std::string latin1 = commandKey({{"/b", "/r/caf\xe9.cpp", {"clang++", "-c", "caf\xe9.cpp"}}});
  std::string other = commandKey({{"/b", "/r/caf\xe8.cpp", {"clang++", "-c", "caf\xe8.cpp"}}});
  EXPECT_NE(latin1, other);
  EXPECT_NE(linksKey({{"/x/caf\xe9.cpp", "caf\xe9.cpp"}}),
            linksKey({{"/x/caf\xe8.cpp", "caf\xe9.cpp"}}));
  // Where one argument ends is part of the key.
  EXPECT_NE(commandKey({{"/b", "a.cpp", {"-DA", "B"}}}), commandKey({{"/b", "a.cpp", {"-DAB"}}}));
  EXPECT_NE(linksKey({}), linksKey({{"", ""}}));
}

TEST(CacheKey, Sizes) {
  EXPECT_EQ(parseSize("500M"), std::optional<std::uint64_t>(500ull << 20));
  EXPECT_EQ(parseSize("2G"), std::optional<std::uint64_t>(2ull << 30));
  EXPECT_EQ(parseSize("4096"), std::optional<std::uint64_t>(4096));
  EXPECT_EQ(parseSize("2GB"), std::nullopt);
  EXPECT_EQ(parseSize("-1"), std::nullopt);
  EXPECT_EQ(parseSize(""), std::nullopt);
}

TEST(CacheKey, BuildIdIsStable) {
  std::string id = gridlockBuildId();
  EXPECT_EQ(id.rfind("build-id ", 0), 0u) << id;
  EXPECT_EQ(gridlockBuildId(), id);
}

// Every key and digest is an MD5 (support/md5.cpp, by OpenSSL): the test suite of RFC 1321's
// appendix A.5, and inputs whose padding spills into a second block (55, 56 and 64 bytes).
TEST(CacheKey, Md5IsRfc1321s) {
  using support::md5Hex;
  EXPECT_EQ(md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(md5Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(md5Hex("1234567890123456789012345678901234567890123456789012345678901234567890123456"
                   "7890"),
            "57edf4a22be3c955ac49da2e2107b67a");
  EXPECT_EQ(md5Hex(std::string(55, 'a')), "ef1772b6dff9a122358552954ad0df65");
  EXPECT_EQ(md5Hex(std::string(56, 'a')), "3b0c8ac703f828b04c6c197006d17218");
  EXPECT_EQ(md5Hex(std::string(64, 'a')), "014842d480b571495a4a0363793f7367");
  EXPECT_EQ(md5Hex(std::string("\0\xff", 2)), "d07d34efac6328007ad67c7e0a985e00");
}

// The store maps an entry instead of copying it (the Python program's entry): the same bytes
// as a read, any bytes; nothing for what is no regular file.
TEST(CacheStore, MappedEntryIsTheEntrysBytes) {
  std::string dir = ::testing::TempDir() + "/gridlock-store-map";
  std::filesystem::remove_all(dir);
  Store store(dir, 1 << 20);
  std::string bytes = std::string("a\0b\n", 4) + std::string(10000, 'x');
  store.write("aa01", bytes);
  store.write("aa02", "");
  std::optional<support::MappedFile> mapped = store.map("aa01");
  ASSERT_TRUE(mapped);
  EXPECT_EQ(mapped->bytes(), bytes);
  support::MappedFile moved = std::move(*mapped);
  EXPECT_EQ(moved.bytes(), bytes);
  EXPECT_EQ(mapped->bytes(), "");
  std::optional<support::MappedFile> empty = store.map("aa02");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->bytes(), "");
  EXPECT_FALSE(store.map("aa03"));
  std::filesystem::create_directories(store.pathOf("aa04"));
  EXPECT_FALSE(store.map("aa04"));
  std::filesystem::remove_all(dir);
}

// `size` bytes that begin as every entry gridlock writes begins.
std::string markedEntry(size_t size) {
  return std::string(kEntryMarker) + std::string(size - kEntryMarker.size(), 'x');
}

TEST(CacheStore, EvictsLeastRecentlyUsedFirst) {
  std::string dir = makeTempDir("cache-store");
  Store store(dir, 3000);  // room for three 1000-byte entries
  std::string kilo = markedEntry(1000);
  std::vector<std::string> slots = {"aa01", "bb02", "cc03", "dd04"};
  for (size_t i = 0; i < slots.size(); ++i) {
    store.write(slots[i], kilo);
    age(store.pathOf(slots[i]), 100 - static_cast<int>(i));  // aa01 oldest
  }
  store.touch("aa01");           // used now: the newest
  EXPECT_EQ(store.evict(), 2u);  // 4000 > 3000: down to 2700 at most
  EXPECT_TRUE(store.read("aa01").has_value());
  EXPECT_FALSE(store.read("bb02").has_value());
  EXPECT_FALSE(store.read("cc03").has_value());
  EXPECT_TRUE(store.read("dd04").has_value());
  EXPECT_EQ(store.evict(), 0u);
  EXPECT_TRUE(fs::exists(dir + "/CACHEDIR.TAG"));
  fs::remove_all(dir);
}

// The directory ignores itself in git, as ruff's and pytest's caches do (a Python project's
// cache lies in its checkout): a .gitignore of `*` beside CACHEDIR.TAG. Not where the directory
// holds other files (a --cache-dir naming one), nor over a .gitignore already there.
TEST(CacheStore, TheDirectoryIgnoresItselfInGit) {
  std::string dir = makeTempDir("cache-store") + "/.gridlock-cache";
  {
    Store store(dir, 1 << 20);
  }
  EXPECT_EQ(readFile(dir + "/.gitignore"),
            "# Made by gridlock: its facts cache is not for version control.\n*\n");
  // A cache made before (no .gitignore) gets one on its next use.
  fs::remove(dir + "/.gitignore");
  {
    Store store(dir, 1 << 20);
    store.write("aa01", markedEntry(100));
  }
  {
    Store store(dir, 1 << 20);
  }
  EXPECT_TRUE(fs::exists(dir + "/.gitignore"));

  std::string shared = makeTempDir("cache-shared");
  writeFile(shared + "/notes.txt", "mine\n");
  {
    Store store(shared, 1 << 20);
  }
  EXPECT_FALSE(fs::exists(shared + "/.gitignore"));

  std::string own = makeTempDir("cache-own");
  writeFile(own + "/.gitignore", "entries/\n");
  {
    Store store(own, 1 << 20);
  }
  EXPECT_EQ(readFile(own + "/.gitignore"), "entries/\n");
  for (const std::string& d : {fs::path(dir).parent_path().string(), shared, own})
    fs::remove_all(d);
}

TEST(CacheStore, StaleTemporariesAreRemoved) {
  std::string dir = makeTempDir("cache-store");
  Store store(dir, 1 << 20);
  store.write("aa01", markedEntry(100));
  std::string stale = store.pathOf("aa01") + ".gridlock-tmp.12345";
  std::string fresh = store.pathOf("aa01") + ".gridlock-tmp.12346";
  std::string empty = store.pathOf("aa01") + ".gridlock-tmp.12347";
  writeFile(stale, "gridlock-cache-en");  // a writer killed while filling it
  writeFile(fresh, "gridlock-cache-en");
  writeFile(empty, "");
  age(stale, 7200);
  age(empty, 7200);
  store.evict();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(empty));
  EXPECT_TRUE(fs::exists(fresh));  // perhaps a writer still at work
  fs::remove_all(dir);
}

// --cache-dir may name a directory that already holds files of others, in entries/ and blobs/
// too: eviction neither counts nor removes a file that does not begin with gridlock's marker,
// however old, whatever its name.
TEST(CacheStore, EvictionRemovesOnlyFilesCarryingTheMarker) {
  std::string dir = makeTempDir("cache-foreign");
  const std::string theirs(5000, 'u');
  const std::vector<std::string> foreign = {dir + "/entries/aa/notes.txt",
                                            dir + "/blobs/ff/photo.jpg",
                                            dir + "/entries/aa/draft.gridlock-tmp.7"};
  for (const auto& f : foreign) {
    writeFile(f, theirs);
    age(f, 7200);  // older than every entry, and than a crashed writer's temporary
  }
  Store store(dir, 3000);  // room for three 1000-byte entries
  std::vector<std::string> slots = {"aa01", "bb02", "cc03", "dd04"};
  for (size_t i = 0; i < slots.size(); ++i) {
    store.write(slots[i], markedEntry(1000));
    age(store.pathOf(slots[i]), 100 - static_cast<int>(i));  // aa01 oldest
  }
  EXPECT_EQ(store.evict(), 2u);  // gridlock's 4000 bytes down to 2000; the others' 15000 aside
  for (const auto& f : foreign) EXPECT_EQ(readFile(f), theirs) << f;
  EXPECT_FALSE(store.read("aa01").has_value());
  EXPECT_FALSE(store.read("bb02").has_value());
  EXPECT_TRUE(store.read("cc03").has_value());
  EXPECT_TRUE(store.read("dd04").has_value());
  EXPECT_EQ(store.evict(), 0u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gridlock::test
