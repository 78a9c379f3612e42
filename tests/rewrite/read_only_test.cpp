// What `rewrite --apply` does with files it may not, or cannot, replace: a read-only file is
// refused (named, exit 2, nothing written) unless --force; every replaced file keeps its mode,
// owner and group; a directory that is not writable and a disk that fills up in the middle of
// the third of five files refuse the whole write and leave nothing behind.
#include "rewrite/rewrite_case.h"

#include "apply/write.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kMpiFiles = {"halo.cpp", "halo.h", "main.cpp"};

TEST(ReadOnly, ReadOnlySourceIsRefusedNamedAndNothingIsWritten) {
  Case c("mpi");
  fs::permissions(c.src + "/halo.h", fs::perms(0444));
  CommandResult r = c.run("rewrite", "--apply -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: halo.h: read-only (mode 0444); pass --force to rewrite "
                       "it anyway (its mode is kept); nothing was changed\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("rewritten"), std::string::npos) << r.err;
  EXPECT_EQ(c.compareWithInput(), "");
  EXPECT_EQ(statOf(c.src + "/halo.h").mode, 0444u);
  EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);
}

TEST(ReadOnly, ForceRewritesAndEveryFileKeepsModeOwnerAndGroup) {
  Case c("mpi");
  fs::permissions(c.src + "/halo.h", fs::perms(0444));
  fs::permissions(c.src + "/main.cpp", fs::perms(0750));
  fs::permissions(c.src + "/halo.cpp", fs::perms(0604));
  bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown((c.src + "/halo.cpp").c_str(), 12345, 23456), 0);
    ASSERT_EQ(::chown((c.src + "/main.cpp").c_str(), 0, 34567), 0);
  }
  std::map<std::string, Stat> before;
  for (const auto& f : kMpiFiles) before[f] = statOf(c.src + "/" + f);
  CommandResult r = c.run("rewrite", "--apply -q --force");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(c.compareWithExpected(), "");
  for (const auto& f : kMpiFiles) EXPECT_EQ(statOf(c.src + "/" + f), before[f]) << f;
  EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);
  if (!root) GTEST_SKIP() << "owners other than the user's need root; modes were checked";
}

TEST(ReadOnly, DirectoryNotWritableIsRefusedNamingEachFile) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run gridlock as another user (setpriv)";
  Case c("substitute");
  // The user (nobody) owns the tree and its files, but not model/, where the files change.
  fs::permissions(c.dir, fs::perms(0755));
  ASSERT_EQ(std::system(("chmod -R a+rX " + c.dir + " && chown -R 65534:65534 " + c.src +
                         " && chown 0:0 " + c.src + "/model")
                            .c_str()),
            0);
  CommandResult r = runCommand("setpriv --reuid=65534 --regid=65534 --clear-groups " + kBin +
                               " rewrite" + c.args() + " --apply -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: model/layer.cpp: its directory is not writable\n"
                       "gridlock: error: model/layer.h: its directory is not writable\n"
                       "gridlock: error: model/left.cpp: its directory is not writable; nothing "
                       "was changed\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(c.compareWithInput(), "");
  EXPECT_EQ(filesUnder(c.src, true), (std::vector<std::string>{"model/", "model/layer.cpp",
                                                               "model/layer.h", "model/left.cpp"}));
}

TEST(ReadOnly, FullDiskInTheThirdOfFiveFilesChangesNothingAndLeavesNothing) {
  SmallTmpfs disk(256);
  if (!disk.mounted) GTEST_SKIP() << "cannot mount a small tmpfs (needs root)";
  apply::Prepared p;
  std::vector<std::string> names = {"a.cpp", "b.cpp", "c.cpp", "d.cpp", "e.cpp"};
  for (const auto& n : names) {
    std::string before = "int " + n.substr(0, 1) + ";\n";
    writeFile(disk.dir + "/" + n, before);
    // The third file's new contents are larger than the disk.
    std::string after = n == "c.cpp" ? std::string(1 << 20, 'c') : "int " + n + "2;\n";
    p.changes.push_back({n, disk.dir + "/" + n, before, after, {}});
  }
  try {
    apply::writeAll(p, disk.dir);
    ADD_FAILURE() << "the full disk was not noticed";
  } catch (const apply::WriteRefused& e) {
    ASSERT_EQ(e.problems.size(), 1u);
    EXPECT_EQ(e.problems[0], "c.cpp: " + disk.dir + "/c.cpp.gridlock-tmp." +
                                 std::to_string(::getpid()) +
                                 ": cannot write: No space left on device; nothing was changed");
  }
  for (const auto& n : names)
    EXPECT_EQ(readFile(disk.dir + "/" + n), "int " + n.substr(0, 1) + ";\n") << n;
  EXPECT_EQ(filesUnder(disk.dir, true), names);
}

}  // namespace
}  // namespace gridlock::test
