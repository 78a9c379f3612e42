#include "rewrite/rewrite_case.h"

#include "apply/unified_diff.h"
#include "rewrite/cpp/finish.h"
#include "rewrite/cpp/plan.h"
#include "rewrite/fix_annotations.h"
#include "support/strings.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

namespace gridlock::test {

namespace fs = std::filesystem;

const std::string kBin = GRIDLOCK_BIN;
const std::string kFixtures = GRIDLOCK_SOURCE_DIR "/fixtures/rewrite";

std::vector<std::string> filesUnder(const std::string& dir, bool all) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string rel = fs::relative(e.path(), dir).string();
    if (e.is_symlink() || e.is_regular_file())
      out.push_back(rel);
    else if (all)
      out.push_back(e.is_directory() ? rel + "/" : rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string expectedFile(const std::string& caseName, const std::string& file) {
  return expectedOutput(inputFile(caseName, file));
}

std::string inputFile(const std::string& caseName, const std::string& file) {
  return readFile(kFixtures + "/" + caseName + "/input/" + file);
}

Stat statOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return {static_cast<unsigned>(st.st_mode & 07777), st.st_uid, st.st_gid};
}

void printTo(const Stat& s, std::ostream* os) {
  *os << std::oct << s.mode << std::dec << " " << s.uid << ":" << s.gid;
}

Case::Case(const std::string& n) : name(n) {
  dir = makeTempDir("rewrite-" + n);
  src = dir + "/src";
  build = dir + "/build";
  fs::create_directories(build);
  fs::copy(kFixtures + "/" + n + "/input", src, fs::copy_options::recursive);
  if (fs::exists(kFixtures + "/" + n + "/paths")) {
    std::istringstream lines(readFile(kFixtures + "/" + n + "/paths"));
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) paths.push_back(src + "/" + line);
  }
  // A Python case has no compile database: its files are found from the pack's scope.
  if (!fs::exists(kFixtures + "/" + n + "/compile_commands.json.in")) return;
  std::string db = readFile(kFixtures + "/" + n + "/compile_commands.json.in");
  support::replaceAll(db, "@SRC@", src);
  support::replaceAll(db, "@BUILD@", build);
  support::replaceAll(db, "@RUNTIME_INCLUDE@", GRIDLOCK_SOURCE_DIR "/runtime/include");
  support::replaceAll(db, "@MPI_INCLUDE@", GRIDLOCK_MPI_INCLUDE);
  writeFile(build + "/compile_commands.json", db);
}

Case::~Case() {
  // Tests make files read-only and owned by others; removal only needs the directories.
  std::error_code ec;
  fs::remove_all(dir, ec);
}

std::string Case::rules() const { return kFixtures + "/" + name + "/gridlock.json"; }

std::string Case::args() const {
  bool db = fs::exists(build + "/compile_commands.json");
  return (db ? " -p " + build : std::string()) + " --rules " + rules() + " --root " + src;
}

CommandResult Case::run(const std::string& sub, const std::string& extra,
                        const std::string& env) const {
  // The facts cache (tests/cache) writes entries of its own: a crash point or an output file
  // under test here must be the rewrite's or the report's alone.
  std::string positional;
  for (const auto& p : paths) positional += " " + p;
  return runCommand((env.empty() ? "" : "env " + env + " ") + kBin + " " + sub + args() +
                    " --no-cache " + extra + positional);
}

std::string Case::compareWithExpected() const {
  std::string input = kFixtures + "/" + name + "/input";
  std::ostringstream diff;
  std::vector<std::string> have = filesUnder(src), want = filesUnder(input);
  if (have != want) diff << "the set of files changed\n";
  for (const auto& f : want) {
    std::string expected = expectedFile(name, f);
    std::string actual = fs::exists(src + "/" + f) ? readFile(src + "/" + f) : "";
    if (actual != expected) diff << apply::fileDiff(f, expected, actual);
  }
  return diff.str();
}

std::string Case::compareWithInput() const {
  std::string input = kFixtures + "/" + name + "/input";
  std::ostringstream diff;
  if (filesUnder(src) != filesUnder(input)) diff << "the set of files changed\n";
  for (const auto& f : filesUnder(input))
    if (readFile(src + "/" + f) != readFile(input + "/" + f))
      diff << apply::fileDiff(f, readFile(input + "/" + f), readFile(src + "/" + f));
  return diff.str();
}

std::string Case::compareRemaining() const {
  CommandResult r = run("scan", "--plan --format json");
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["parse_errors"], 0) << "the rewritten code does not compile";
  std::map<std::pair<std::string, unsigned>, std::multiset<std::string>> want, have;
  for (const auto& f : filesUnder(src))
    for (auto& [line, fixes] : expectedLeft(readFile(src + "/" + f))) want[{f, line}] = fixes;
  for (const auto& read : j["reads"]) {
    if (read["kind"] == "global_write") continue;
    have[{read["file"].get<std::string>(), read["line"].get<unsigned>()}].insert(
        read["fix"].get<std::string>());
  }
  std::ostringstream out;
  std::set<std::pair<std::string, unsigned>> lines;
  for (const auto& [k, v] : want) lines.insert(k);
  for (const auto& [k, v] : have) lines.insert(k);
  auto join = [](const std::multiset<std::string>& s) {
    std::string j;
    for (const auto& x : s) j += (j.empty() ? "" : " ") + x;
    return j.empty() ? std::string("(none)") : j;
  };
  for (const auto& k : lines)
    if (want[k] != have[k])
      out << k.first << ":" << k.second << ": CHECK-LEFT says " << join(want[k])
          << ", scan --plan says " << join(have[k]) << "\n";
  return out.str();
}

pipeline::ScanRun scanCase(const Case& c, bool rewriteFacts) {
  pipeline::ScanRequest o;
  o.buildDir = c.build;
  o.rules = {c.rules()};
  o.root = c.src;
  o.files = c.paths;
  o.jobs = 2;
  o.rewriteFacts = rewriteFacts;
  return pipeline::scan(o);
}

apply::Prepared prepareCase(const Case& c) {
  pipeline::ScanRun run = scanCase(c, true);
  return rewrite::cpp::prepare(*rewrite::cpp::planState(run.inventory, run.rules), run.root);
}

SmallTmpfs::SmallTmpfs(size_t kilobytes) {
  dir = makeTempDir("tmpfs");
  if (::geteuid() != 0) return;
  std::string cmd =
      "mount -t tmpfs -o size=" + std::to_string(kilobytes) + "k tmpfs " + dir + " 2>/dev/null";
  mounted = std::system(cmd.c_str()) == 0;
}

SmallTmpfs::~SmallTmpfs() {
  if (mounted) (void)!std::system(("umount " + dir).c_str());
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace gridlock::test
