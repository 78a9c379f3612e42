// The Python frontend as a scan runs it (python_scan.h): the directories the packs' scope
// names, the units of positional paths only, the module facts cache (stat before digest), no
// .py file an error.
#include "python/python_scan.h"

#include "cache/sealed.h"
#include "cache/stamp_table.h"
#include "facts/facts_codec.h"
#include "index/inventory.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <link.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

namespace gridlock::python {
namespace {

namespace fs = std::filesystem;
using Lines = std::vector<std::string>;
const std::string kRoot = GRIDLOCK_SOURCE_DIR "/fixtures/python";

rules::RuleSet pack(const std::string& scope) {
  return rules::RuleSet({rules::parseRulePack(
      R"({"name": "p", "scope": )" + scope +
          R"(, "accessors": [{"python": "a.get_x", "kind": "accessor", "group": "tp", "yields": "group"}]})",
      "p.json")});
}

// The Python scan needs no LLVM (docs/architecture.md, "What links what"): this test links
// what a Python scan links (python_scan, index, the cache's store and stamps), and none of it
// may bring libLLVM in: relocating it and running its static initialisers took a quarter of a
// warm scan of megatron/core. (Run with libLLVM preloaded, it fails.)
TEST(PythonScan, LoadsNoLLVM) {
  std::string loaded;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        std::string name = info->dlpi_name ? info->dlpi_name : "";
        if (name.find("libLLVM") != std::string::npos)
          *static_cast<std::string*>(out) += name + " ";
        return 0;
      },
      &loaded);
  EXPECT_EQ(loaded, "");
}

TEST(PythonScan, DirectoriesFromThePacksScope) {
  EXPECT_EQ(pythonDirs(pack(R"({"include": ["megatron/core/**"], "edges": ["tools/run.py"]})")),
            (Lines{"megatron/core", "tools"}));
  EXPECT_EQ(pythonDirs(pack(R"({"include": ["src/a/**", "src/**/x.py", "src/a/b/*.py"]})")),
            (Lines{"src"}));
  EXPECT_EQ(pythonDirs(pack(R"({"include": ["**"], "edges": ["train/**"]})")), (Lines{""}));
  EXPECT_TRUE(hasPythonRules(pack("{}")));
  EXPECT_FALSE(hasPythonRules(rules::RuleSet({rules::parseRulePack(
      R"({"name": "c", "accessors": [{"function": "f", "kind": "shim"}]})", "c.json")})));
}

std::vector<std::string> readsOf(const std::vector<facts::UnitFacts>& units,
                                 const std::string& file) {
  std::vector<std::string> out;
  for (const auto& u : units)
    for (const auto& r : u.tu.reads)
      if (r.file == file)
        out.push_back(std::to_string(r.line) + " " + std::string(facts::spell(r.kind)));
  return out;
}

TEST(PythonScan, PositionalPathsSelectUnitsAndEveryModuleResolves) {
  rules::RuleSet rules = rules::RuleSet::load({kRoot + "/gridlock.json"});
  PythonScan all;
  all.options.root = kRoot;
  all.options.jobs = 2;
  PythonUnits whole = scanPython(all, rules);
  EXPECT_EQ(whole.modules, 14u);
  EXPECT_EQ(whole.units.size(), 14u);
  PythonScan some = all;
  some.only = {"mcore/layers/", "train/main.py"};
  PythonUnits part = scanPython(some, rules);
  EXPECT_EQ(part.modules, 14u);
  Lines files;
  for (const auto& u : part.units) files.push_back(u.tu.mainFile);
  EXPECT_EQ(files, (Lines{"mcore/layers/__init__.py", "mcore/layers/allowed.py",
                          "mcore/layers/attention.py", "mcore/layers/heads.py",
                          "mcore/layers/imports.py", "mcore/layers/linear.py", "train/main.py"}));
  // Names resolve through the modules left out (mcore/__init__.py's mpu, utils' fallback).
  EXPECT_EQ(readsOf(part.units, "mcore/layers/attention.py"),
            readsOf(whole.units, "mcore/layers/attention.py"));
  EXPECT_FALSE(readsOf(part.units, "mcore/layers/attention.py").empty());
  // The whole root (a positional "."): every unit. A path is checked, not walked: one that is
  // not there or lies outside the root is an error naming it.
  some.only = {""};
  EXPECT_EQ(scanPython(some, rules).units.size(), 14u);
  for (const auto& [path, problem] : std::vector<std::pair<std::string, std::string>>{
           {"nowhere", "nowhere: no such file or directory"},
           {"../pymodel", "../pymodel: lies outside the root " + kRoot}}) {
    some.only = {path};
    try {
      scanPython(some, rules);
      ADD_FAILURE() << path << ": no error";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), problem);
    }
  }
}

TEST(PythonScan, TheCacheGivesTheSameUnits) {
  fs::path dir = fs::temp_directory_path() / ("gridlock-py-cache-" + std::to_string(::getpid()));
  rules::RuleSet rules = rules::RuleSet::load({kRoot + "/gridlock.json"});
  PythonScan s;
  s.options.root = kRoot;
  s.cacheDir = dir.string();
  PythonUnits cold = scanPython(s, rules);
  EXPECT_EQ(cold.cacheMisses, 14u);
  EXPECT_EQ(cold.cacheHits, 0u);
  PythonUnits warm = scanPython(s, rules);
  EXPECT_EQ(warm.cacheHits, 14u);
  EXPECT_EQ(warm.cacheMisses, 0u);
  index::Inventory a = index::merge(cold.units), b = index::merge(warm.units);
  ASSERT_EQ(a.reads.size(), b.reads.size());
  for (size_t i = 0; i < a.reads.size(); ++i)
    EXPECT_EQ(a.reads[i].file + ":" + std::to_string(a.reads[i].line) + a.reads[i].name,
              b.reads[i].file + ":" + std::to_string(b.reads[i].line) + b.reads[i].name);
  EXPECT_EQ(a.parseErrors.size(), 1u);
  EXPECT_EQ(b.parseErrors.size(), 1u);
  // One module edited: it alone is parsed again, and the whole program resolved again.
  s.options.overlay["mcore/state.py"] = "_STATE = None\n\n\ndef get_state():\n    return _STATE\n";
  PythonUnits edited = scanPython(s, rules);
  EXPECT_EQ(edited.cacheHits, 13u);
  EXPECT_EQ(edited.cacheMisses, 1u);
  // No function sets _STATE under `global` any more: it is no state, its 4 reads and writes in
  // state.py and its 2 reads in utils.py go.
  EXPECT_EQ(index::merge(edited.units).reads.size(), a.reads.size() - 6);
  fs::remove_all(dir);
}

// The cache entry of `kind` (cache/sealed.h: "python-stamps", "python-modules",
// "python-program"); there is one of each.
fs::path entryOf(const fs::path& cacheDir, const std::string& kind) {
  for (const auto& e : fs::recursive_directory_iterator(cacheDir / "entries"))
    if (e.is_regular_file() &&
        test::readFile(e.path().string()).starts_with("gridlock-cache-entry " + kind + " "))
      return e.path();
  return {};
}

// The cache entry that records each file's stamp and key.
fs::path stampsEntry(const fs::path& cacheDir) { return entryOf(cacheDir, "python-stamps"); }

cache::StampTable stampsIn(const fs::path& entry) {
  std::string bytes = test::readFile(entry.string()), problem;
  std::optional<std::string_view> table = cache::unseal("python-stamps", bytes, problem);
  return table ? cache::StampTable::decode(*table) : cache::StampTable();
}

// A warm run reads no file whose stamp (size, mtime, ctime, inode, device) is the one recorded
// long enough after its last change; a racy stamp, a changed one, or an edit of the same size
// whose mtime was put back (the ctime moved) is read and digested again.
TEST(PythonScan, TheCacheStatsAFileBeforeItReadsIt) {
  fs::path dir = fs::temp_directory_path() / ("gridlock-py-stamps-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "tree");
  fs::copy(kRoot, dir / "tree", fs::copy_options::recursive);
  rules::RuleSet rules = rules::RuleSet::load({kRoot + "/gridlock.json"});
  PythonScan s;
  s.options.root = (dir / "tree").string();
  s.cacheDir = (dir / "cache").string();
  PythonUnits cold = scanPython(s, rules);
  EXPECT_EQ(cold.cacheMisses, 14u);
  EXPECT_EQ(cold.filesRead, 14u);
  // Copied just now: every stamp is racy, so every file is read again.
  PythonUnits racy = scanPython(s, rules);
  EXPECT_EQ(racy.cacheHits, 14u);
  EXPECT_EQ(racy.filesRead, 14u);
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  PythonUnits restamped = scanPython(s, rules);  // read once more, recorded as not racy
  EXPECT_EQ(restamped.cacheHits, 14u);
  EXPECT_EQ(restamped.filesRead, 14u);
  PythonUnits warm = scanPython(s, rules);
  EXPECT_EQ(warm.cacheHits, 14u);
  EXPECT_EQ(warm.filesRead, 0u);
  EXPECT_EQ(readsOf(warm.units, "train/main.py"), readsOf(cold.units, "train/main.py"));

  // The same bytes with a new mtime: read, the same key, a hit.
  fs::path main = dir / "tree/train/main.py";
  std::string text = test::readFile(main.string());
  test::writeFile(main.string(), text);
  PythonUnits touched = scanPython(s, rules);
  EXPECT_EQ(touched.cacheHits, 14u);
  EXPECT_EQ(touched.filesRead, 1u);

  // Same size, the mtime put back: only the ctime tells, and the read on line 9 is gone.
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  EXPECT_EQ(scanPython(s, rules).filesRead, 1u);  // main.py's racy record: read, not racy now
  ASSERT_EQ(scanPython(s, rules).filesRead, 0u);
  Lines before = readsOf(cold.units, "train/main.py");
  ASSERT_EQ(before.front(), "9 accessor");
  auto mtime = fs::last_write_time(main);
  const std::string call = "get_tensor_model_parallel_group()  #";
  ASSERT_NE(text.find(call), std::string::npos);
  text.replace(text.find(call), call.size(), "get_tensor_model_parallel_grouq()  #");
  test::writeFile(main.string(), text);
  fs::last_write_time(main, mtime);
  PythonUnits edited = scanPython(s, rules);
  EXPECT_EQ(edited.filesRead, 1u);
  EXPECT_EQ(edited.cacheMisses, 1u);
  EXPECT_EQ(edited.cacheHits, 13u);
  before.erase(before.begin());
  EXPECT_EQ(readsOf(edited.units, "train/main.py"), before);
  fs::remove_all(dir);
}

// A scan of fixtures/python (checked out long ago: its stamps are not racy) with its cache in
// a fresh directory `tag` under the temporary directory.
PythonScan cachedScan(const std::string& tag, fs::path& dir) {
  dir = fs::temp_directory_path() / ("gridlock-py-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  PythonScan s;
  s.options.root = kRoot;
  s.cacheDir = dir.string();
  return s;
}

// Nothing from the cache is trusted across paths: a stamps entry planted to give main.py the
// key of state.py's facts (and state.py main.py's) is refused by the facts, which name
// another file; both are parsed again.
TEST(PythonScan, CachedFactsNamingAnotherFileAreRefused) {
  fs::path dir;
  PythonScan s = cachedScan("plant", dir);
  rules::RuleSet rules = rules::RuleSet::load({kRoot + "/gridlock.json"});
  PythonUnits cold = scanPython(s, rules);
  ASSERT_EQ(scanPython(s, rules).filesRead, 0u);
  fs::path entry = stampsEntry(dir);
  ASSERT_FALSE(entry.empty());
  cache::StampTable table = stampsIn(entry);
  cache::StampedKey main = *table.find("train/main.py"), state = *table.find("mcore/state.py");
  std::swap(main.key, state.key);
  table.keep("train/main.py", main);
  table.keep("mcore/state.py", state);
  test::writeFile(entry.string(), cache::seal("python-stamps", table.encode()));
  PythonUnits planted = scanPython(s, rules);
  EXPECT_EQ(planted.filesRead, 0u);
  EXPECT_EQ(planted.cacheMisses, 2u);
  EXPECT_EQ(planted.cacheHits, 12u);
  Lines files, coldFiles;
  for (const auto& u : planted.units) files.push_back(u.tu.mainFile);
  for (const auto& u : cold.units) coldFiles.push_back(u.tu.mainFile);
  EXPECT_EQ(files, coldFiles);  // each unit is its own file's
  for (const std::string file : {"train/main.py", "mcore/state.py"})
    EXPECT_EQ(readsOf(planted.units, file), readsOf(cold.units, file)) << file;
  fs::remove_all(dir);
}

// `bytes` with its first `from` (which it must hold) replaced by `to`, of the same length: damage
// that still decodes, into a wrong name.
std::string damaged(std::string bytes, const std::string& from, const std::string& to) {
  size_t at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) bytes.replace(at, from.size(), to);
  return bytes;
}

// Each cache entry carries a checksum: a damaged one (here a name changed in place, which
// would still decode) is discarded with one warning naming it, and what it held is worked
// out again; the units are those of a scan without the cache.
TEST(PythonScan, DamagedCacheEntriesAreDiscardedWithAWarning) {
  fs::path dir;
  PythonScan s = cachedScan("damage", dir);
  rules::RuleSet rules = rules::RuleSet::load({kRoot + "/gridlock.json"});
  PythonUnits cold = scanPython(s, rules);
  EXPECT_EQ(cold.cacheWarnings, Lines{});
  ASSERT_EQ(scanPython(s, rules).filesRead, 0u);
  const std::string name = "get_tensor_model_parallel_group",
                    other = "get_tensor_model_parallel_grouq";
  auto same = [&](const PythonUnits& warm) {  // every fact of every unit
    ASSERT_EQ(warm.units.size(), cold.units.size());
    for (size_t i = 0; i < cold.units.size(); ++i)
      EXPECT_EQ(facts::encodeTuFactsBinary(warm.units[i].tu),
                facts::encodeTuFactsBinary(cold.units[i].tu))
          << cold.units[i].tu.mainFile;
  };

  fs::path program = entryOf(dir, "python-program");
  ASSERT_FALSE(program.empty());
  test::writeFile(program.string(), damaged(test::readFile(program.string()), name, other));
  PythonUnits resolved = scanPython(s, rules);
  EXPECT_EQ(resolved.cacheWarnings,
            Lines{"cache: entry " + program.string() +
                  " (the Python program) is corrupt (checksum mismatch); resolving the modules "
                  "again"});
  EXPECT_EQ(resolved.cacheHits, 14u);  // the modules' facts were whole
  same(resolved);

  // The modules' facts, consulted once the program's entry is gone.
  fs::path modules = entryOf(dir, "python-modules");
  ASSERT_FALSE(modules.empty());
  test::writeFile(modules.string(), damaged(test::readFile(modules.string()), name, other));
  fs::remove(program);
  PythonUnits parsed = scanPython(s, rules);
  EXPECT_EQ(parsed.cacheWarnings,
            Lines{"cache: entry " + modules.string() +
                  " (the Python modules' facts) is corrupt (checksum mismatch); parsing every "
                  "module again"});
  EXPECT_EQ(parsed.cacheMisses, 14u);
  same(parsed);

  // The stamps, cut short: every file is read and digested again.
  fs::path stamps = stampsEntry(dir);
  std::string bytes = test::readFile(stamps.string());
  test::writeFile(stamps.string(), bytes.substr(0, bytes.size() - 7));
  PythonUnits read = scanPython(s, rules);
  EXPECT_EQ(read.cacheWarnings,
            Lines{"cache: entry " + stamps.string() +
                  " (the Python files' stamps) is corrupt (truncated); reading every file again"});
  EXPECT_EQ(read.filesRead, 14u);
  EXPECT_EQ(read.cacheHits, 14u);
  same(read);
  EXPECT_EQ(scanPython(s, rules).cacheWarnings, Lines{});  // each written whole again
  fs::remove_all(dir);
}

// A cache directory that cannot be made: said, as the C++ frontend says it; the scan goes on.
TEST(PythonScan, ACacheDirectoryThatCannotBeMadeIsAWarning) {
  fs::path file = fs::temp_directory_path() / ("gridlock-py-nodir-" + std::to_string(::getpid()));
  test::writeFile(file.string(), "a file\n");
  PythonScan s;
  s.options.root = kRoot;
  s.cacheDir = file.string();
  PythonUnits r = scanPython(s, rules::RuleSet::load({kRoot + "/gridlock.json"}));
  EXPECT_EQ(r.cacheWarnings,
            Lines{"cache: " + file.string() +
                  ": cannot create the cache directory: Not a directory; scanning without the "
                  "cache"});
  EXPECT_EQ(r.units.size(), 14u);
  fs::remove(file);
}

TEST(PythonScan, NoPythonFileIsAnError) {
  fs::path dir = fs::temp_directory_path() / ("gridlock-py-none-" + std::to_string(::getpid()));
  fs::create_directories(dir / "megatron/core");
  PythonScan s;
  s.options.root = dir.string();
  try {
    scanPython(s, pack(R"({"include": ["megatron/core/**"]})"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "no .py file under megatron/core in " + dir.string() + " (the rule packs' scope)");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gridlock::python
