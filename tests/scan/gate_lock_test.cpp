// Two `gate --update` runs at once: each decides and writes under BASELINE.lock, from the
// baseline as it is then, so neither loses the other's tightening. (docs/guarantees.md,
// `## gate`; support/lock_file.h)
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>

namespace gridlock::test {
namespace {

// The baseline's count of `file`'s reads in `enclosing` (0 when it has no such key).
int countOf(const std::string& baseline, const std::string& file, const std::string& enclosing) {
  int n = 0;
  const nlohmann::json doc = nlohmann::json::parse(readFile(baseline));
  for (const auto& e : doc["entries"])
    if (e["file"] == file && e["enclosing"] == enclosing) n += e["count"].get<int>();
  return n;
}

// a_two drops its get_dp, b_one its only read: one run over a.cpp, one over b.cpp, each
// tightens the keys of its own file. The first is stopped with its new baseline written but
// not yet in place; the second runs meanwhile (before the lock it would write first and be
// overwritten; with it, it waits) and the first goes on once the second is done or waiting.
TEST(GateLock, ConcurrentUpdatesOfOtherFilesKeepBothTightenings) {
  SmallProject p("gate-lock");
  ASSERT_EQ(p.runIn(".", "gate --update --no-cache").status, 0);
  const std::string baseline = p.real() + "/gridlock-baseline.json";
  ASSERT_EQ(countOf(baseline, "src/core/a.cpp", "a_two"), 2) << readFile(baseline);
  ASSERT_EQ(countOf(baseline, "src/core/b.cpp", "b_one"), 1);
  p.write("core/a.cpp",
          "#include \"../ps.h\"\n"
          "#include \"shared.h\"\n"
          "void a_one() { ps::get_tp(); }\n"
          "void a_two() {\n"
          "  ps::get_tp();\n"
          "}\n");
  p.write("core/b.cpp", "#include \"../ps.h\"\nvoid b_one() {}\n");

  const std::string secondErr = p.dir() + "/second.err";
  std::future<int> second;
  Spawned first = runStopping(
      {GRIDLOCK_BIN, "gate", "--config", p.dir() + "/.gridlock.json", "--update", "--no-cache",
       "-q", p.dir() + "/src/core/a.cpp"},
      {"GRIDLOCK_STOP_AT=output-written:1"}, [&] {
        second = std::async(std::launch::async, [&] {
          return std::system(("cd " + shellQuote(p.dir()) + " && " + GRIDLOCK_BIN +
                              " gate --update --no-cache -q src/core/b.cpp >/dev/null 2>" +
                              shellQuote(secondErr))
                                 .c_str());
        });
        while (second.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready &&
               readFile(secondErr).find("gridlock: waiting for ") == std::string::npos) {
        }
      });
  EXPECT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(second.get(), 0);
  // The second waited for the first, by its pid.
  std::string waited = readFile(secondErr);
  const std::string before = "gridlock: waiting for " + baseline + ".lock: another gridlock (pid ";
  const std::string after = ") is writing " + baseline + "\n";
  EXPECT_TRUE(waited.starts_with(before) && waited.ends_with(after)) << waited;
  if (waited.size() > before.size() + after.size()) {
    std::string pid = waited.substr(before.size(), waited.size() - before.size() - after.size());
    EXPECT_EQ(pid.find_first_not_of("0123456789"), std::string::npos) << pid;
  }
  EXPECT_EQ(countOf(baseline, "src/core/a.cpp", "a_two"), 1);
  EXPECT_EQ(countOf(baseline, "src/core/b.cpp", "b_one"), 0);
  EXPECT_EQ(nlohmann::json::parse(readFile(baseline))["total"], 3);
  EXPECT_FALSE(std::filesystem::exists(baseline + ".lock"));
}

}  // namespace
}  // namespace gridlock::test
