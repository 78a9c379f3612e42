// The facts cache end to end, on a private copy of the scan fixture: a warm scan reports the
// very bytes a scan without the cache reports, after every kind of edit, and parses only the
// translation units the edit reaches; damaged entries are misses with a warning; processes
// sharing one cache never see half an entry.
#include "cache/fixture_copy.h"
#include "cache/key.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

struct Counts {
  int hits = -1, misses = -1, total = -1;
};

Counts countsOf(const std::string& json) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded()) return {};
  Counts c;
  c.total = j["summary"]["total"].get<int>();
  if (j["summary"].contains("cache")) {
    c.hits = j["summary"]["cache"]["hits"].get<int>();
    c.misses = j["summary"]["cache"]["misses"].get<int>();
  }
  return c;
}

// The one warning every full scan of the fixture gives, with or without the cache: the scan
// fixture's pack extends gridlock-legacy, whose type rule gridlock::ShardingMetadata no unit of
// the fixture declares. A hit must carry what the unit declares (TuFacts::rulesSeen) for the
// warning to stay the same.
const std::string kUnmatched =
    "gridlock: warning: type rule 'gridlock::ShardingMetadata' (pack minitron) matched no "
    "declaration in 7 translation units\n";

// stderr without the cache's own lines (-v counts and reasons, warnings about entries).
std::string withoutCacheLines(const std::string& err) {
  std::string out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("gridlock: cache: ", 0) != 0 && line.rfind("gridlock: warning: cache: ", 0) != 0)
      out += line + "\n";
  return out;
}

class CacheCli : public ::testing::Test {
 protected:
  // A scan through the cache; the same scan without it must report the same facts.
  CommandResult cached(const std::string& format, const std::string& extra = "") {
    return gridlock("scan --format " + format + fx.args() + extra);
  }
  CommandResult uncached(const std::string& format) {
    return gridlock("scan --no-cache --format " + format + fx.args());
  }
  // A cached JSON scan that must equal the uncached one but for summary.cache; returns it.
  CommandResult expectSameAsUncached(const std::string& extra = "") {
    CommandResult warm = cached("json", extra);
    EXPECT_EQ(warm.status, 0) << warm.err;
    CommandResult truth = uncached("json");
    EXPECT_EQ(truth.status, 0) << truth.err;
    EXPECT_EQ(withoutCacheCounts(warm.out), withoutCacheCounts(truth.out));
    EXPECT_EQ(withoutCacheLines(warm.err), truth.err);  // the same warnings
    return warm;
  }

  FixtureCopy fx;
};

TEST_F(CacheCli, WarmScanIsByteIdenticalToACold) {
  CommandResult cold = cached("json");
  ASSERT_EQ(cold.status, 0) << cold.err;
  Counts c = countsOf(cold.out);
  EXPECT_EQ(c.hits, 0);
  EXPECT_EQ(c.misses, 7);
  EXPECT_EQ(c.total, 28);
  EXPECT_TRUE(fs::is_directory(fx.cacheDir() + "/entries"));

  CommandResult warm = cached("json");
  ASSERT_EQ(warm.status, 0) << warm.err;
  c = countsOf(warm.out);
  EXPECT_EQ(c.hits, 7);
  EXPECT_EQ(c.misses, 0);
  EXPECT_EQ(withoutCacheCounts(warm.out), withoutCacheCounts(cold.out));
  EXPECT_EQ(cold.err, kUnmatched);
  EXPECT_EQ(warm.err, kUnmatched);

  // Text and SARIF carry no cache counts: every byte equal.
  for (const std::string format : {"text", "sarif"}) {
    CommandResult truth = uncached(format);
    CommandResult hit = cached(format);
    EXPECT_EQ(hit.status, 0) << hit.err;
    EXPECT_EQ(hit.out, truth.out) << format;
    EXPECT_FALSE(hit.out.empty());
  }
  // With --no-cache every TU is parsed, and says so.
  c = countsOf(uncached("json").out);
  EXPECT_EQ(c.hits, 0);
  EXPECT_EQ(c.misses, 7);
}

TEST_F(CacheCli, ChangedSourceMissesOnlyItsTranslationUnit) {
  ASSERT_EQ(cached("json").status, 0);
  fx.write("core/attention.cpp",
           fx.read("core/attention.cpp") +
               "namespace minitron {\n"
               "int added_read() { return gridlock::parallel_state::get_data_parallel_rank(); }\n"
               "}  // namespace minitron\n");
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 29);
  EXPECT_EQ(c.hits, 6);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(warm.err,
            "gridlock: cache: 6 hits, 1 miss\n"
            "gridlock: cache: core/attention.cpp: source changed\n" +
                kUnmatched);
}

TEST_F(CacheCli, ChangedHeaderMissesTheThreeUnitsThatIncludeIt) {
  ASSERT_EQ(cached("json").status, 0);
  // core/attention.h is included by attention.cpp, other_names.cpp and templates.cpp.
  fx.write("core/attention.h", fx.read("core/attention.h") +
                                   "namespace minitron {\n"
                                   "inline int header_read() {\n"
                                   "  return gridlock::parallel_state::get_data_parallel_rank();\n"
                                   "}\n"
                                   "}  // namespace minitron\n");
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 29);  // a header's read counts once
  EXPECT_EQ(c.hits, 4);
  EXPECT_EQ(c.misses, 3);
  EXPECT_EQ(warm.err,
            "gridlock: cache: 4 hits, 3 misses\n"
            "gridlock: cache: core/attention.cpp: header core/attention.h changed\n"
            "gridlock: cache: core/other_names.cpp: header core/attention.h changed\n"
            "gridlock: cache: core/templates.cpp: header core/attention.h changed\n" +
                kUnmatched);
  for (const std::string format : {"text", "sarif"}) {
    CommandResult hit = cached(format);
    EXPECT_EQ(hit.out, uncached(format).out) << format;
  }
}

TEST_F(CacheCli, ChangedRulePackMissesEveryUnit) {
  ASSERT_EQ(cached("json").status, 0);
  std::string pack = fx.read("gridlock.json");
  size_t at = pack.find("\"exclude\": []");
  ASSERT_NE(at, std::string::npos);
  pack.replace(at, 13, "\"exclude\": [\"kernels/**\"]");
  fx.write("gridlock.json", pack);
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 27);  // kernels/scale.cu's one read is out of scope
  EXPECT_EQ(c.hits, 0);
  EXPECT_EQ(c.misses, 7);
  EXPECT_NE(warm.err.find("gridlock: cache: kernels/scale.cu: rule packs changed\n"),
            std::string::npos)
      << warm.err;
}

TEST_F(CacheCli, ChangedDefineMissesItsUnit) {
  fx.write("core/state.cpp",
           fx.read("core/state.cpp") +
               "#ifdef GRIDLOCK_TEST_EXTRA\n"
               "int extra_read() { return gridlock::parallel_state::get_data_parallel_rank(); }\n"
               "#endif\n");
  ASSERT_EQ(countsOf(cached("json").out).total, 28);
  fx.editDatabase("-c " + fx.root + "/core/state.cpp",
                  "-DGRIDLOCK_TEST_EXTRA -c " + fx.root + "/core/state.cpp");
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 29);
  EXPECT_EQ(c.hits, 6);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(warm.err,
            "gridlock: cache: 6 hits, 1 miss\n"
            "gridlock: cache: core/state.cpp: compile command changed\n" +
                kUnmatched);
}

TEST_F(CacheCli, HeaderCreatedEarlierOnTheSearchPathShadowsAnother) {
  ASSERT_EQ(cached("json").status, 0);
  // core/comm.cpp includes <mpi.h> with -I ROOT before -isystem MPI: an mpi.h created in the
  // root now wins, and adds a read. Only comm.cpp includes <mpi.h>; the other TUs that looked
  // for other headers in the root find them still missing.
  fx.write("mpi.h",
           "#pragma once\n"
           "#include_next <mpi.h>\n"
           "#include \"gridlock/parallel_state.h\"\n"
           "inline int shadow_read() {\n"
           "  return gridlock::parallel_state::get_data_parallel_rank();\n"
           "}\n");
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 29);
  EXPECT_EQ(c.hits, 6);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(warm.err,
            "gridlock: cache: 6 hits, 1 miss\n"
            "gridlock: cache: core/comm.cpp: new file mpi.h on the search path\n" +
                kUnmatched);
}

TEST_F(CacheCli, HeaderCreatedInANewDirectoryOnTheSearchPath) {
  ASSERT_EQ(cached("json").status, 0);
  // core/comm.cpp includes "core/macros.h": a quoted include is looked for beside the includer
  // first, in core/core/, before -I. A header created there now wins, and its TP_RANK reads
  // nothing global. Every TU in core/ looked for a core/core/ directory and stopped there.
  fx.write("core/core/macros.h",
           "#pragma once\n"
           "#include \"gridlock/parallel_state.h\"\n"
           "#define TP_RANK() 0\n"
           "#define WORLD_BARRIER() MPI_Barrier(MPI_COMM_WORLD)\n"
           "#define CALL_WITH(x) (x)\n");
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 25);  // rank_once's one TP_RANK and rank_twice's two are gone
  EXPECT_EQ(c.hits, 3);
  EXPECT_EQ(c.misses, 4);
  EXPECT_EQ(warm.err,
            "gridlock: cache: 3 hits, 4 misses\n"
            "gridlock: cache: core/attention.cpp: new directory core/core on the search path\n"
            "gridlock: cache: core/comm.cpp: new directory core/core on the search path\n"
            "gridlock: cache: core/other_names.cpp: new directory core/core on the search path\n"
            "gridlock: cache: core/templates.cpp: new directory core/core on the search path\n" +
                kUnmatched);
}

TEST_F(CacheCli, ChangedLinksIntoTheRootMissEveryUnit) {
  // outside/part.cpp lies outside the root; the database lists ROOT/part.cpp, a link to it, so
  // the scan names the file part.cpp. ROOT/unity.cpp includes it by its real path: its read
  // is at part.cpp while the link is in the database, and outside the root (not reported)
  // once it is not. Nothing unity.cpp reads changes in between.
  writeFile(fx.dir + "/outside/part.cpp",
            "#include \"gridlock/parallel_state.h\"\n"
            "int part_read() { return gridlock::parallel_state::get_data_parallel_rank(); }\n");
  fs::create_symlink(fx.dir + "/outside/part.cpp", fx.root + "/part.cpp");
  fx.write("unity.cpp", "#include \"" + fx.dir + "/outside/part.cpp\"\n");
  auto past = fs::file_time_type::clock::now() - std::chrono::minutes(1);
  for (const std::string& f : {fx.dir + "/outside/part.cpp", fx.root + "/unity.cpp"})
    fs::last_write_time(f, past);
  const std::string dbPath = fx.build + "/compile_commands.json";
  auto db = nlohmann::json::parse(readFile(dbPath));
  nlohmann::json state;
  for (const auto& e : db)
    if (e["file"] == fx.root + "/core/state.cpp") state = e;
  ASSERT_FALSE(state.is_null());
  auto unitFor = [&](const std::string& rel) {
    nlohmann::json e = state;
    std::string command = e["command"];
    command.replace(command.find(fx.root + "/core/state.cpp"), (fx.root + "/core/state.cpp").size(),
                    fx.root + "/" + rel);
    e["command"] = command;
    e["file"] = fx.root + "/" + rel;
    return e;
  };
  nlohmann::json linked = db;
  linked.push_back(unitFor("part.cpp"));
  linked.push_back(unitFor("unity.cpp"));
  writeFile(dbPath, linked.dump(2));
  CommandResult cold = cached("json");
  ASSERT_EQ(cold.status, 0) << cold.err;
  EXPECT_EQ(countsOf(cold.out).total, 29);  // part_read, once for part.cpp and unity.cpp

  nlohmann::json unlinked = db;
  unlinked.push_back(unitFor("unity.cpp"));
  writeFile(dbPath, unlinked.dump(2));
  CommandResult warm = expectSameAsUncached(" -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 28);
  EXPECT_EQ(c.hits, 0);
  EXPECT_EQ(c.misses, 8);
  EXPECT_NE(warm.err.find("gridlock: cache: 0 hits, 8 misses\n"
                          "gridlock: cache: core/attention.cpp: files linked into the root "
                          "changed\n"),
            std::string::npos)
      << warm.err;
  EXPECT_NE(warm.err.find("gridlock: cache: unity.cpp: files linked into the root changed\n"),
            std::string::npos)
      << warm.err;
}

TEST_F(CacheCli, FileNamesThatAreNotUtf8AreCachedLikeAnyOther) {
  // A unit named in Latin-1 ("café.cpp"), with a -D spelled in Latin-1 too: the cache keys
  // and entries hold the bytes as they are.
  const std::string name = "caf\xe9.cpp";
  fx.write(name,
           "#include \"gridlock/parallel_state.h\"\n"
           "int cafe_read() { return gridlock::parallel_state::get_data_parallel_rank(); }\n");
  fs::last_write_time(fx.root + "/" + name,
                      fs::file_time_type::clock::now() - std::chrono::minutes(1));
  fx.editDatabase("[", "[{\"directory\": \"" + fx.root + "\", \"file\": \"" + fx.root + "/" + name +
                           "\", \"command\": \"clang++ -std=c++20 -DWHERE=\\\"caf\xe9\\\" -I" +
                           GRIDLOCK_SOURCE_DIR + "/runtime/include -c " + fx.root + "/" + name +
                           "\"},");
  CommandResult truth = uncached("json");
  ASSERT_EQ(truth.status, 0) << truth.err;
  EXPECT_EQ(countsOf(truth.out).total, 29);
  CommandResult cold = cached("json", " -v");
  ASSERT_EQ(cold.status, 0) << cold.err;
  EXPECT_EQ(withoutCacheCounts(cold.out), withoutCacheCounts(truth.out));
  EXPECT_EQ(countsOf(cold.out).misses, 8);
  CommandResult warm = cached("json", " -v");
  EXPECT_EQ(withoutCacheCounts(warm.out), withoutCacheCounts(truth.out));
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.hits, 8);
  EXPECT_EQ(c.misses, 0);
}

TEST_F(CacheCli, TouchedFilesWithTheSameBytesStillHit) {
  ASSERT_EQ(cached("json").status, 0);
  fx.write("core/attention.h", fx.read("core/attention.h"));  // new mtime, same bytes
  CommandResult warm = cached("json", " -v");
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.hits, 7);
  EXPECT_EQ(c.misses, 0);
  EXPECT_EQ(warm.err, "gridlock: cache: 7 hits, 0 misses\n" + kUnmatched);
}

// An edit of the same size whose mtime is put back (`touch -d`, a checkout tool, a build system
// that restores times) keeps size and mtime; the ctime still moves, so the digest decides.
TEST_F(CacheCli, SameSizeEditWithTheMtimePutBackMisses) {
  ASSERT_EQ(cached("json").status, 0);
  const std::string header = fx.root + "/core/attention.h";
  auto mtime = fs::last_write_time(header);
  std::string text = fx.read("core/attention.h");
  const std::string read = "return ps::get_tensor_model_parallel_world_size();";
  const std::string gone = "return 0;//get_tensor_model_parallel_world_size();";
  ASSERT_EQ(read.size(), gone.size());
  text.replace(text.find(read), read.size(), gone);
  fx.write("core/attention.h", text);
  fs::last_write_time(header, mtime);
  CommandResult warm = expectSameAsUncached();
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.total, 27);  // tp_size_inline's read is gone (one read for three units)
  EXPECT_EQ(c.hits, 4);
  EXPECT_EQ(c.misses, 3);  // attention.cpp, comm.cpp, state.cpp include it
}

std::string entryOf(const FixtureCopy& fx, const std::string& tu) {
  std::string slot =
      cache::slotOf(fs::canonical(fx.root).string(), fx.root + "/" + tu, /*rewriteFacts=*/false);
  return fx.cacheDir() + "/entries/" + slot.substr(0, 2) + "/" + slot;
}

TEST_F(CacheCli, DamagedEntriesAreMissesWithOneWarningLineEach) {
  CommandResult cold = cached("json");
  ASSERT_EQ(cold.status, 0);
  std::string truncated = entryOf(fx, "core/attention.cpp");
  std::string flipped = entryOf(fx, "core/comm.cpp");
  std::string foreign = entryOf(fx, "core/state.cpp");
  for (const auto& p : {truncated, flipped, foreign}) ASSERT_TRUE(fs::exists(p)) << p;

  std::string bytes = readFile(truncated);
  writeFile(truncated, bytes.substr(0, bytes.size() / 2));
  bytes = readFile(flipped);
  bytes[bytes.size() - 10] ^= 0x01;
  writeFile(flipped, bytes);
  bytes = readFile(foreign);
  size_t line2 = bytes.find('\n') + 1;
  bytes.replace(line2, bytes.find('\n', line2) - line2, "build-id 0123");
  writeFile(foreign, bytes);

  CommandResult warm = cached("json", " -v");
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(withoutCacheCounts(warm.out), withoutCacheCounts(cold.out));
  Counts c = countsOf(warm.out);
  EXPECT_EQ(c.hits, 4);
  EXPECT_EQ(c.misses, 3);
  // A damaged entry is named when it is read, in the order the scan reaches the units: the
  // first two lines in either order.
  const std::string truncatedLine = "gridlock: warning: cache: core/attention.cpp: entry " +
                                    truncated +
                                    " is corrupt (truncated); scanning the file again\n";
  const std::string flippedLine = "gridlock: warning: cache: core/comm.cpp: entry " + flipped +
                                  " is corrupt (checksum mismatch); scanning the file again\n";
  const std::string rest =
      "gridlock: warning: cache: 1 entry came from another gridlock (written by "
      "build-id 0123); their files are scanned again\n"
      "gridlock: cache: 4 hits, 3 misses\n"
      "gridlock: cache: core/attention.cpp: entry corrupt (truncated)\n"
      "gridlock: cache: core/comm.cpp: entry corrupt (checksum mismatch)\n"
      "gridlock: cache: core/state.cpp: entry from another gridlock (written by "
      "build-id 0123)\n" +
      kUnmatched;
  EXPECT_TRUE(warm.err == truncatedLine + flippedLine + rest ||
              warm.err == flippedLine + truncatedLine + rest)
      << warm.err;
  // The misses wrote good entries again.
  c = countsOf(cached("json").out);
  EXPECT_EQ(c.hits, 7);
  EXPECT_EQ(c.misses, 0);
}

TEST_F(CacheCli, CacheDirAndNoCache) {
  std::string elsewhere = fx.dir + "/elsewhere";
  CommandResult r = cached("json", " --cache-dir " + elsewhere);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_directory(elsewhere + "/entries"));
  EXPECT_FALSE(fs::exists(fx.cacheDir()));
  EXPECT_EQ(countsOf(cached("json", " --cache-dir " + elsewhere).out).hits, 7);

  ASSERT_EQ(uncached("json").status, 0);
  EXPECT_FALSE(fs::exists(fx.cacheDir()));

  CommandResult both = cached("json", " --no-cache --cache-dir " + elsewhere);
  EXPECT_EQ(both.status, 2);
  CommandResult size = cached("json", " --cache-size 12X");
  EXPECT_EQ(size.status, 2);
  EXPECT_NE(size.err.find("--cache-size: 12X is not a size"), std::string::npos) << size.err;
}

TEST_F(CacheCli, UnwritableCacheDirIsAWarningNotAnError) {
  std::string file = fx.dir + "/not-a-dir";
  writeFile(file, "x");
  CommandResult r = cached("json", " --cache-dir " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gridlock: warning: cache: " + file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scanning without the cache"), std::string::npos) << r.err;
  EXPECT_EQ(countsOf(r.out).misses, 7);
}

TEST_F(CacheCli, GateCallersAndRewriteUseTheCache) {
  std::string base = fx.dir + "/baseline.json";
  CommandResult gate = gridlock("gate" + fx.args() + " --baseline " + base + " --update -v");
  ASSERT_EQ(gate.status, 0) << gate.err;
  EXPECT_NE(gate.err.find("gridlock: cache: 0 hits, 7 misses\n"), std::string::npos) << gate.err;
  gate = gridlock("gate" + fx.args() + " --baseline " + base + " -v");
  EXPECT_EQ(gate.status, 0) << gate.err;
  EXPECT_EQ(gate.err, "gridlock: cache: 7 hits, 0 misses\n" + kUnmatched);

  CommandResult callers =
      gridlock("callers -p " + fx.build + " --root " + fx.root +
               " --function minitron::Attention::Attention --param tp_group -v");
  EXPECT_EQ(callers.status, 0) << callers.err;
  // Without rules the frontend collects other facts: its own entries.
  EXPECT_NE(callers.err.find("gridlock: cache: 0 hits, 7 misses\n"), std::string::npos);
  callers = gridlock("callers -p " + fx.build + " --root " + fx.root +
                     " --function minitron::Attention::Attention --param tp_group -v");
  EXPECT_NE(callers.err.find("gridlock: cache: 7 hits, 0 misses\n"), std::string::npos);

  CommandResult diff = gridlock("rewrite --diff -q" + fx.args() + " -v");
  EXPECT_EQ(diff.status, 0) << diff.err;
  CommandResult again = gridlock("rewrite --diff -q" + fx.args() + " -v");
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.out, diff.out);
  EXPECT_FALSE(diff.out.empty());
  EXPECT_NE(again.err.find("gridlock: cache: 7 hits, 0 misses\n"), std::string::npos) << again.err;
}

// Two processes, one cache. Process A is held by a barrier after it wrote its first entry's
// temporary and before the rename; process B scans meanwhile. B must see no entry for that TU
// (a half-written one would be a wrong hit), report the right facts, and store its own; A
// then finishes; a third scan hits every entry.
TEST_F(CacheCli, TwoProcessesOneCacheNeverSeeAHalfWrittenEntry) {
  std::string fifo = fx.dir + "/barrier";
  std::string done = fx.dir + "/done";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(done.c_str(), 0600), 0);
  CommandResult truth = uncached("json");
  ASSERT_EQ(truth.status, 0);

  std::string a = std::string("( GRIDLOCK_TEST_CACHE_BARRIER=") + fifo + " " + GRIDLOCK_BIN +
                  " scan --format json --jobs 1" + fx.args() + " > " + fx.dir + "/a.out 2> " +
                  fx.dir + "/a.err; echo $? > " + done + " ) &";
  ASSERT_EQ(std::system(a.c_str()), 0);
  // Opening the barrier for writing returns once A has opened it for reading: A is at the
  // barrier, its temporary written.
  int barrier = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(barrier, 0);
  // A new entry is written as an unnamed file (support/atomic_write.h): the hook names the
  // entry it will become, which must not exist yet.
  std::string temporary = readFile(fifo + ".at");
  std::string entry = temporary.substr(0, temporary.find(".gridlock-tmp."));
  EXPECT_NE(entry.find("/entries/"), std::string::npos) << temporary;
  EXPECT_FALSE(fs::exists(entry));

  CommandResult b = cached("json", " --jobs 1");
  EXPECT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(b.err, kUnmatched);
  EXPECT_EQ(withoutCacheCounts(b.out), withoutCacheCounts(truth.out));
  Counts cb = countsOf(b.out);
  EXPECT_EQ(cb.hits, 0);
  EXPECT_EQ(cb.misses, 7);
  EXPECT_TRUE(fs::exists(entry));  // B stored its own

  ASSERT_EQ(::write(barrier, "x", 1), 1);
  ::close(barrier);
  EXPECT_EQ(readFile(done), "0\n");  // blocks until A is done
  EXPECT_EQ(withoutCacheCounts(readFile(fx.dir + "/a.out")), withoutCacheCounts(truth.out));
  EXPECT_EQ(readFile(fx.dir + "/a.err"), kUnmatched);
  for (const auto& e : fs::recursive_directory_iterator(fx.cacheDir() + "/entries"))
    EXPECT_EQ(e.path().string().find(".gridlock-tmp."), std::string::npos) << e.path();

  CommandResult c = cached("json");
  EXPECT_EQ(countsOf(c.out).hits, 7);
  EXPECT_EQ(withoutCacheCounts(c.out), withoutCacheCounts(truth.out));
}

// A writer killed between writing an entry and making it visible leaves nothing (the new
// contents are an unnamed file until then): the next scan misses that TU, with no warning,
// and reports the right facts.
TEST_F(CacheCli, CrashBeforeRenameLeavesNoEntry) {
  CommandResult crash = gridlock("scan --format json --jobs 1" + fx.args(),
                                 "GRIDLOCK_TEST_CACHE_CRASH_BEFORE_RENAME=1");
  EXPECT_EQ(crash.status, 86);
  size_t temporaries = 0, entries = 0;
  for (const auto& e : fs::recursive_directory_iterator(fx.cacheDir() + "/entries"))
    if (e.is_regular_file())
      ++(e.path().string().find(".gridlock-tmp.") != std::string::npos ? temporaries : entries);
  EXPECT_EQ(temporaries, 0u);
  EXPECT_EQ(entries, 0u);

  CommandResult next = cached("json");
  EXPECT_EQ(next.status, 0);
  EXPECT_EQ(next.err, kUnmatched);  // no warning about the temporary
  EXPECT_EQ(countsOf(next.out).misses, 7);
  EXPECT_EQ(withoutCacheCounts(next.out), withoutCacheCounts(uncached("json").out));
}

}  // namespace
}  // namespace gridlock::test
