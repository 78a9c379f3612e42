// Module state in Python packs (docs/scan.md, "Setters" and "Module state"): a setter's calls are
// writes, counted and gated; a shard-size helper that takes the state as a parameter reads
// nothing where a call hands it over; a call that is both an accessor read and a laundered read
// is one read. The gridlock binary on small projects written here; exact sites.
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
using Lines = std::vector<std::string>;

// A state module (`pkg/shard.py`, outside the scope) with a setter, a getter and a helper that
// falls back to the module's value when the caller leaves `kv` out.
const char* kShard =
    "kv_heads = None\n"
    "\n"
    "\n"
    "def set_kv_heads(n):\n"
    "    global kv_heads\n"
    "    kv_heads = n\n"
    "\n"
    "\n"
    "def get_kv_heads():\n"
    "    return kv_heads\n"
    "\n"
    "\n"
    "def shard_size(total, mp, meta=None, kv=None):\n"
    "    if kv is None:\n"
    "        kv = kv_heads\n"
    "    return total // mp\n";

const char* kPack = R"({"name": "st", "scope": {"include": ["pkg/**"], "exclude": ["pkg/shard.py"]},
  "accessors": [
    {"python": "pkg.shard.get_kv_heads", "kind": "accessor", "yields": "state",
     "returns": "pkg.shard.kv_heads"},
    {"python": "pkg.shard.shard_size", "kind": "accessor", "yields": "state",
     "state_parameter": "meta"}],
  "setters": [{"python": "pkg.shard.set_kv_heads", "writes": "pkg.shard.kv_heads"}],
  "globals": [{"python_module": "pkg.shard"}]})";

std::string project(const std::string& use) {
  std::string dir = makeTempDir("py-state");
  writeFile(dir + "/pkg/__init__.py", "");
  writeFile(dir + "/pkg/shard.py", kShard);
  writeFile(dir + "/pkg/use.py", use);
  writeFile(dir + "/st.json", kPack);
  return dir;
}

// Every read of the scan as "line:column kind name" (the laundered ones with what they launder),
// and the summary's totals.
Lines scanReads(const std::string& dir, nlohmann::json* summary = nullptr) {
  CommandResult r = runCommand("cd " + dir + " && " + kBin +
                               " scan --no-cache --rules st.json --root . --format json");
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  if (summary) *summary = j["summary"];
  Lines out;
  for (const auto& read : j["reads"])
    out.push_back(
        std::to_string(read["line"].get<int>()) + ":" + std::to_string(read["column"].get<int>()) +
        " " + read["kind"].get<std::string>() + " " + read["name"].get<std::string>() +
        (read.contains("launders") ? " launders " + read["launders"].get<std::string>() : ""));
  return out;
}

TEST(PythonState, SetterCallsAreWritesAndEachCallIsOneRead) {
  std::string dir = project(
      "from pkg import shard\n"
      "\n"
      "\n"
      "def build(n):\n"
      "    shard.set_kv_heads(n)\n"
      "    return shard.get_kv_heads()\n"
      "\n"
      "\n"
      "def sizes(total):\n"
      "    a = shard.shard_size(total, 2)\n"
      "    b = shard.shard_size(total, 2, kv=4)\n"
      "    return a, b\n");
  nlohmann::json summary;
  // 5: the setter's call (a write); 6: the getter; 10: the helper leaves kv out, so the call
  // launders kv_heads: one read, the laundered one; 11: kv given, the accessor read alone.
  EXPECT_EQ(
      scanReads(dir, &summary),
      (Lines{"5:11 global_write pkg.shard.set_kv_heads", "6:18 accessor pkg.shard.get_kv_heads",
             "10:15 laundered pkg.shard.shard_size launders pkg.shard.kv_heads",
             "11:15 accessor pkg.shard.shard_size"}));
  EXPECT_EQ(summary["total"], 3);
  EXPECT_EQ(summary["writes"], 1);
}

// After the move the helper takes the state as `meta`: a call binding it (positionally, by
// keyword, forwarded through **kwargs) reads nothing; `meta=None` and a call leaving it out
// still read.
TEST(PythonState, ACallHandingTheStateOverReadsNothing) {
  std::string dir = project(
      "from pkg import shard\n"
      "\n"
      "\n"
      "def sizes(total, m, **kwargs):\n"
      "    a = shard.shard_size(total, 2, m, kv=1)\n"
      "    b = shard.shard_size(total, 2, meta=m, kv=1)\n"
      "    c = shard.shard_size(total, 2, kv=1, **kwargs)\n"
      "    d = shard.shard_size(total, 2, meta=None, kv=1)\n"
      "    e = shard.shard_size(total, 2, kv=1)\n"
      "    return a, b, c, d, e\n");
  EXPECT_EQ(scanReads(dir),
            (Lines{"8:15 accessor pkg.shard.shard_size", "9:15 accessor pkg.shard.shard_size"}));
}

// A setter call added after the baseline fails the gate, keyed as a write.
TEST(GateWrites, ANewSetterCallFailsTheGatePython) {
  std::string dir = project(
      "from pkg import shard\n"
      "\n"
      "\n"
      "def build(n):\n"
      "    shard.set_kv_heads(n)\n");
  const std::string gate =
      "cd " + dir + " && " + kBin + " gate --no-cache --rules st.json --root . --baseline b.json";
  ASSERT_EQ(runCommand(gate + " --update -q").status, 0);
  ASSERT_EQ(runCommand(gate).status, 0);
  writeFile(dir + "/pkg/use.py",
            "from pkg import shard\n"
            "\n"
            "\n"
            "def build(n):\n"
            "    shard.set_kv_heads(n)\n"
            "    shard.set_kv_heads(n + 1)\n");
  CommandResult r = runCommand(gate);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("pkg/use.py | pkg.use.build | pkg.shard.set_kv_heads (write)"),
            std::string::npos)
      << r.out;
  // The ratchet takes no rise, writes included; without the new call the gate passes again.
  EXPECT_EQ(runCommand(gate + " --update -q").status, 1);
  writeFile(dir + "/pkg/use.py",
            "from pkg import shard\n"
            "\n"
            "\n"
            "def build(n):\n"
            "    shard.set_kv_heads(n)\n");
  EXPECT_EQ(runCommand(gate).status, 0);
}

// A setter's call sites are listed though it is declared in a module no pack scans, each saying
// what it writes (text and JSON).
TEST(PythonCallers, SetterSitesInAnExcludedModule) {
  std::string dir = project(
      "from pkg import shard\n"
      "from pkg.shard import set_kv_heads\n"
      "\n"
      "\n"
      "def build(n):\n"
      "    shard.set_kv_heads(n)\n"
      "    set_kv_heads(n=n + 1)\n");
  const std::string callers = "cd " + dir + " && " + kBin +
                              " callers --no-cache --rules st.json --root . --function "
                              "pkg.shard.set_kv_heads --param n";
  CommandResult json = runCommand(callers + " --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  Lines sites;
  for (const auto& site : j["sites"])
    sites.push_back(site["file"].get<std::string>() + ":" +
                    std::to_string(site["line"].get<int>()) + " " +
                    site["supplied"].get<std::string>() + " " + site["passed"].get<std::string>() +
                    " writes " + site["writes"].get<std::string>());
  EXPECT_EQ(sites, (Lines{"pkg/use.py:6 forwarded positional writes pkg.shard.kv_heads",
                          "pkg/use.py:7 explicit keyword writes pkg.shard.kv_heads"}));
  CommandResult text = runCommand(callers);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("  writes pkg.shard.kv_heads\n"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace gridlock::test
