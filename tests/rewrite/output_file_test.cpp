// Output files (`-o FILE` of scan and callers, `gate --update`'s baseline, `rewrite
// --export-fixes`): all go through support::writeFileAtomic. A symlink is written through and
// stays; a FIFO or a device is written directly and stays what it was; a full disk or a kill at
// any step leaves the old file (or none) and no temporary that the next write does not remove;
// a replaced file keeps its mode, owner and group.
#include "rewrite/rewrite_case.h"

#include "support/atomic_write.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

// What `scan` prints for the case, the contents every -o below must hold.
std::string scanJson(const Case& c) {
  CommandResult r = c.run("scan", "--format json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.out.empty());
  return r.out;
}

TEST(OutputFile, SymlinkIsWrittenThroughAndTheLinksStay) {
  Case c("mpi");
  fs::create_directories(c.dir + "/real");
  fs::create_directories(c.dir + "/links");
  writeFile(c.dir + "/real/report.json", "old\n");
  fs::create_symlink("../real/report.json", c.dir + "/links/first.json");
  fs::create_symlink("first.json", c.dir + "/links/second.json");  // a chain of two
  CommandResult r = c.run("scan", "--format json -o " + c.dir + "/links/second.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(c.dir + "/links/first.json"));
  EXPECT_TRUE(fs::is_symlink(c.dir + "/links/second.json"));
  EXPECT_EQ(fs::read_symlink(c.dir + "/links/second.json"), "first.json");
  EXPECT_EQ(readFile(c.dir + "/real/report.json"), scanJson(c));
  EXPECT_EQ(filesUnder(c.dir + "/real", true), std::vector<std::string>{"report.json"});
}

TEST(OutputFile, DanglingSymlinkCreatesItsTarget) {
  Case c("mpi");
  fs::create_symlink("made.json", c.dir + "/link.json");
  CommandResult r = c.run("scan", "--format json -o " + c.dir + "/link.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(c.dir + "/link.json"));
  EXPECT_EQ(readFile(c.dir + "/made.json"), scanJson(c));
}

TEST(OutputFile, SymlinkLoopIsRefusedAndTheLinksStay) {
  Case c("mpi");
  fs::create_symlink("b.json", c.dir + "/a.json");
  fs::create_symlink("a.json", c.dir + "/b.json");
  CommandResult r = c.run("scan", "--format json -o " + c.dir + "/a.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gridlock: error: -o " + c.dir +
                       "/a.json: cannot follow its symlinks: Too many levels of symbolic links\n");
  EXPECT_TRUE(fs::is_symlink(c.dir + "/a.json"));
  EXPECT_TRUE(fs::is_symlink(c.dir + "/b.json"));
}

TEST(OutputFile, FifoIsWrittenDirectlyAndStaysAFifo) {
  Case c("mpi");
  std::string fifo = c.dir + "/report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  // Both ends held here first, so neither the reader nor gridlock waits for the other in
  // open(); a FIFO replaced by a file gets nothing, and the test fails instead of hanging.
  int readEnd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(readEnd, 0);
  int writeEnd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(writeEnd, 0);
  ASSERT_EQ(::fcntl(readEnd, F_SETFL, 0), 0);  // blocking reads from here on
  std::string got;
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = ::read(readEnd, buf, sizeof buf)) > 0;) got.append(buf, size_t(n));
  });
  CommandResult r = c.run("scan", "--format json -o " + fifo);
  ::close(writeEnd);  // the reader sees the end once gridlock has closed its end too
  reader.join();
  ::close(readEnd);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(got, scanJson(c));
  EXPECT_TRUE(fs::is_fifo(fifo));
}

// A device node of its own (the kernel's "full" device, 1:7), so that a regression replaces
// the test's node and not the system's /dev/full.
TEST(OutputFile, FullDeviceFailsClearlyAndStaysADevice) {
  if (::geteuid() != 0) GTEST_SKIP() << "the promise is about root, who could replace a device";
  Case c("mpi");
  std::string full = c.dir + "/full";
  if (::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "cannot make a device node here (" << std::strerror(errno) << ")";
  CommandResult r = c.run("scan", "--format json -o " + full);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: " + full + ": cannot write: No space left on device\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::is_character_file(full));
  EXPECT_EQ(filesUnder(c.dir, true),
            (std::vector<std::string>{"build/", "build/compile_commands.json", "full", "src/",
                                      "src/halo.cpp", "src/halo.h", "src/main.cpp"}));
}

// Found before the scan (cli/scan_options.h, checkOutputPath): the one error, nothing else.
TEST(OutputFile, MissingDirectoryIsAClearError) {
  Case c("mpi");
  CommandResult r = c.run("scan", "--format json -o " + c.dir + "/nowhere/report.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gridlock: error: -o " + c.dir + "/nowhere/report.json: the directory " + c.dir +
                       "/nowhere does not exist\n");
}

TEST(OutputFile, FullDiskLeavesTheOldFileAndNoTemporary) {
  SmallTmpfs disk(64);
  if (!disk.mounted) GTEST_SKIP() << "cannot mount a small tmpfs (needs root)";
  std::string out = disk.dir + "/report.json";
  writeFile(out, "old\n");
  std::string big(1 << 20, 'x');
  try {
    support::writeFileAtomic(out, big);
    ADD_FAILURE() << "the full disk was not noticed";
  } catch (const support::WriteError& e) {
    EXPECT_EQ(std::string(e.what()), out + ": cannot write: No space left on device");
  }
  EXPECT_EQ(readFile(out), "old\n");
  EXPECT_EQ(filesUnder(disk.dir, true), std::vector<std::string>{"report.json"});
  // A file that did not exist is not created.
  EXPECT_THROW(support::writeFileAtomic(disk.dir + "/new.json", big), support::WriteError);
  EXPECT_EQ(filesUnder(disk.dir, true), std::vector<std::string>{"report.json"});
  // And the space is free again: the same disk takes a small write.
  support::writeFileAtomic(out, "new\n");
  EXPECT_EQ(readFile(out), "new\n");
}

TEST(OutputFile, ReplacedFileKeepsModeOwnerAndGroup) {
  std::string dir = makeTempDir("output-meta");
  std::string out = dir + "/baseline.json";
  writeFile(out, "old\n");
  ASSERT_EQ(::chmod(out.c_str(), 0604), 0);
  bool root = ::geteuid() == 0;
  if (root) ASSERT_EQ(::chown(out.c_str(), 12345, 23456), 0);
  struct stat before, after;
  ASSERT_EQ(::stat(out.c_str(), &before), 0);
  support::writeFileAtomic(out, "new\n");
  ASSERT_EQ(::stat(out.c_str(), &after), 0);
  EXPECT_EQ(readFile(out), "new\n");
  EXPECT_EQ(after.st_mode & 07777, 0604u);
  EXPECT_EQ(after.st_uid, before.st_uid);
  EXPECT_EQ(after.st_gid, before.st_gid);
  EXPECT_NE(after.st_ino, before.st_ino);  // replaced, not written in place
  EXPECT_EQ(filesUnder(dir, true), std::vector<std::string>{"baseline.json"});
  fs::remove_all(dir);
  if (!root) GTEST_SKIP() << "owners other than the user's need root; the mode was checked";
}

TEST(OutputFile, GateBaselineAndExportedFixesAreWrittenThroughSymlinks) {
  Case c("mpi");
  fs::create_directories(c.dir + "/kept");
  fs::create_symlink("kept/baseline.json", c.dir + "/baseline.json");
  CommandResult gate = c.run("gate", "--baseline " + c.dir + "/baseline.json --update");
  ASSERT_EQ(gate.status, 0) << gate.err << gate.out;
  EXPECT_TRUE(fs::is_symlink(c.dir + "/baseline.json"));
  EXPECT_NE(readFile(c.dir + "/kept/baseline.json").find("\"MPI_COMM_WORLD\""), std::string::npos);
  fs::create_symlink("kept/fixes.yaml", c.dir + "/fixes.yaml");
  CommandResult fixes = c.run("rewrite", "-q --export-fixes " + c.dir + "/fixes.yaml");
  ASSERT_EQ(fixes.status, 0) << fixes.err;
  EXPECT_TRUE(fs::is_symlink(c.dir + "/fixes.yaml"));
  EXPECT_NE(readFile(c.dir + "/kept/fixes.yaml").find("MainSourceFile:"), std::string::npos);
  EXPECT_EQ(filesUnder(c.dir + "/kept", true),
            (std::vector<std::string>{"baseline.json", "fixes.yaml"}));
}

// Leftovers beside `out` other than itself: only "<out>.gridlock-tmp.<pid>" may remain.
void expectOnlyStaleTemps(const std::string& dir, const std::string& name) {
  for (const auto& f : filesUnder(dir, true)) {
    if (f == name) continue;
    std::string prefix = name + ".gridlock-tmp.";
    EXPECT_EQ(f.compare(0, prefix.size(), prefix), 0) << f;
    EXPECT_EQ(f.substr(prefix.size()).find_first_not_of("0123456789"), std::string::npos) << f;
  }
}

TEST(OutputFile, KillAtEveryStepLeavesTheOldOrTheNewFile) {
  Case c("mpi");
  std::string dir = c.dir + "/out", out = dir + "/report.json";
  fs::create_directories(dir);
  const std::string fresh = scanJson(c);
  std::string trace = c.dir + "/points";
  writeFile(out, "old\n");
  CommandResult traced = c.run("scan", "--format json -o " + out, "GRIDLOCK_TRACE_POINTS=" + trace);
  ASSERT_EQ(traced.status, 0) << traced.err;
  std::vector<std::string> points;
  std::istringstream in(readFile(trace));
  for (std::string line; std::getline(in, line);) points.push_back(line);
  // Replacing a file reaches every output step once.
  std::vector<std::string> want;
  for (auto s : support::kOutputSteps) want.push_back(std::string(s) + ":1");
  EXPECT_EQ(points, want);
  for (const auto& point : points) {
    SCOPED_TRACE(point);
    writeFile(out, "old\n");
    CommandResult r = c.run("scan", "--format json -o " + out, "GRIDLOCK_CRASH_AT=" + point);
    ASSERT_EQ(r.status, 137) << r.err;
    bool renamed = point.rfind(std::string(support::kOutputSteps[2]), 0) == 0;
    EXPECT_EQ(readFile(out), renamed ? fresh : std::string("old\n"));
    expectOnlyStaleTemps(dir, "report.json");
    // The next write of the same output removes what the killed one left.
    ASSERT_EQ(c.run("scan", "--format json -o " + out).status, 0);
    EXPECT_EQ(readFile(out), fresh);
    EXPECT_EQ(filesUnder(dir, true), std::vector<std::string>{"report.json"});
  }
}

}  // namespace
}  // namespace gridlock::test
