// The Python frontend as a scan runs it (python_scan.h): the directories the packs' scope
// names, the units of positional paths only, the module facts cache, no .py file an error.
#include "python/python_scan.h"

#include "index/inventory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
  some.only = {"nowhere"};
  EXPECT_THROW(scanPython(some, rules), InputError);
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
  // No function sets _STATE under `global` any more: it is no state, its 4 reads and writes go.
  EXPECT_EQ(index::merge(edited.units).reads.size(), a.reads.size() - 4);
  fs::remove_all(dir);
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
