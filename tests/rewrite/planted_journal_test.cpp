// A `.gridlock-journal` gridlock did not write (shipped in a tarball, committed to a
// repository, planted in a shared directory) is input like any other: `rewrite --recover`
// writes nothing outside the root it names, takes no mode or owner from it, and a journal
// directory of another user is ignored with a warning (docs/guarantees.md, `## rewrite`).
#include "rewrite/rewrite_case.h"

#include "support/file_io.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

// A journal of one entry naming `file` with the mode and owner `meta` ("4755 0 0"): its new
// contents are `now` (what the file holds, so --recover would put the old ones back) and its
// old contents, kept in old/0, are `old`.
void plantJournal(const std::string& root, const std::string& file, const std::string& now,
                  const std::string& old, const std::string& meta = "644 0 0") {
  std::string dir = root + "/.gridlock-journal";
  writeFile(dir + "/journal", "gridlock rewrite journal 1\npid 7\nfiles 1\n" +
                                  support::md5Hex(old) + " " + support::md5Hex(now) + " " + meta +
                                  " " + file + "\nend\n");
  writeFile(dir + "/old/0", old);
}

// "" when the case's sources hold their input, whatever else lies beside them.
std::string sourcesChanged(const Case& c) {
  std::string out;
  for (const std::string f : {"halo.cpp", "halo.h", "main.cpp"})
    if (readFile(c.src + "/" + f) != inputFile(c.name, f)) out += f + " changed\n";
  return out;
}

std::string recoverCommand(const std::string& root, const std::string& extra = "") {
  return kBin + " rewrite --recover --root " + root + " " + extra;
}

TEST(PlantedJournal, EntriesThatLeaveTheRootAreRefusedAndNothingOutsideIsWritten) {
  Case c("mpi");
  std::string outside = fs::canonical(c.dir).string();
  writeFile(c.dir + "/victim.txt", "victim\n");
  fs::create_directory_symlink(c.dir, c.src + "/up");        // a directory leading out
  fs::create_symlink("../victim.txt", c.src + "/link.txt");  // a file leading out
  const std::string tail =
      "; gridlock writes only under the root, so it is no journal of an apply; remove " + c.src +
      "/.gridlock-journal (gridlock leaves the tree as it is)\n";
  const std::vector<std::pair<std::string, std::string>> entries = {
      {"../victim.txt", "a path through .."},
      {"sub/../../victim.txt", "a path through .."},
      {c.dir + "/victim.txt", "an absolute path"},
      {"up/victim.txt",
       "outside the root once its symlinks are followed (" + outside + "/victim.txt)"},
      {"link.txt", "outside the root once its symlinks are followed (" + outside + "/victim.txt)"},
  };
  for (const auto& [entry, why] : entries) {
    SCOPED_TRACE(entry);
    plantJournal(c.src, entry, "victim\n", "planted\n", "4755 0 0");
    const std::string refused = "gridlock: error: " + c.src + "/.gridlock-journal/journal: names " +
                                entry + ", " + why + tail;
    for (const std::string force : {"", "--force"}) {
      CommandResult r = runCommand(recoverCommand(c.src, force));
      EXPECT_EQ(r.status, 2);
      EXPECT_EQ(r.err, refused);
      EXPECT_EQ(readFile(c.dir + "/victim.txt"), "victim\n");
      EXPECT_TRUE(fs::exists(c.src + "/.gridlock-journal/old/0"));
    }
    // A scan says the same instead of sending the user to --recover.
    CommandResult scan = c.run("scan");
    EXPECT_EQ(scan.status, 2);
    EXPECT_EQ(scan.err, refused);
    fs::remove_all(c.src + "/.gridlock-journal");
  }
  EXPECT_EQ(sourcesChanged(c), "");
}

TEST(PlantedJournal, ModeAndOwnerComeFromTheFileReplacedNeverFromTheJournal) {
  bool root = ::geteuid() == 0;
  Case c("mpi");
  // halo.cpp holds what the journal calls its new contents: --recover puts "planted" there (in
  // the root, which whoever shipped the journal shipped too), but with halo.cpp's own mode and
  // owner, not the journal's 4755 and uid 65534, nor those of the planted old/0.
  Stat before = statOf(c.src + "/halo.cpp");
  plantJournal(c.src, "halo.cpp", readFile(c.src + "/halo.cpp"), "planted\n", "4755 65534 65534");
  fs::permissions(c.src + "/.gridlock-journal/old/0", fs::perms(04755));
  if (root) ASSERT_EQ(::chown((c.src + "/.gridlock-journal/old/0").c_str(), 65534, 65534), 0);
  CommandResult r = runCommand(recoverCommand(c.src));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), "planted\n");
  EXPECT_EQ(statOf(c.src + "/halo.cpp"), before);

  // halo.h holds neither: --force leaves it and saves the old contents beside it as a new file
  // of the user's, with no set-id bit.
  writeFile(c.src + "/halo.h", "edited\n");
  plantJournal(c.src, "halo.h", "new\n", "planted\n", "6755 65534 65534");
  CommandResult forced = runCommand(recoverCommand(c.src, "--force"));
  ASSERT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(readFile(c.src + "/halo.h"), "edited\n");
  EXPECT_EQ(readFile(c.src + "/halo.h.gridlock-old"), "planted\n");
  Stat saved = statOf(c.src + "/halo.h.gridlock-old");
  EXPECT_EQ(saved.mode & 07000, 0u);
  EXPECT_EQ(saved.uid, ::geteuid());
  EXPECT_EQ(saved.gid, ::getegid());
  if (!root) GTEST_SKIP() << "a planted file of another user needs root; modes were checked";
}

// A tree whose halo.cpp holds new contents and whose journal, in `dir`, belongs to nobody.
void plantForeignJournal(const Case& c, const std::string& dir, const std::string& file) {
  plantJournal(dir, file, readFile(c.src + "/halo.cpp"), "planted\n");
  ASSERT_EQ(std::system(("chown -R 65534:65534 " + dir + "/.gridlock-journal").c_str()), 0);
}

TEST(PlantedJournal, AJournalOfAnotherUserIsIgnoredWithAWarningUnlessTrusted) {
  if (::geteuid() != 0) GTEST_SKIP() << "a journal of another user needs root to plant";
  Case c("mpi");
  plantForeignJournal(c, c.src, "halo.cpp");
  const std::string warning = "gridlock: warning: " + c.src +
                              "/.gridlock-journal: ignored, not a journal of yours: owned by uid "
                              "65534, not by you (uid 0); to trust it, set "
                              "GRIDLOCK_SAFE_DIRECTORIES=" +
                              c.src + "\n";
  CommandResult scan = c.run("scan", "-q");
  EXPECT_EQ(scan.status, 0);
  EXPECT_EQ(scan.err, warning);
  CommandResult rec = runCommand(recoverCommand(c.src));
  EXPECT_EQ(rec.status, 2);
  EXPECT_EQ(rec.err, warning + "gridlock: error: " + c.src +
                         "/.gridlock-journal: not a journal of yours (see the warning above): "
                         "only its owner's gridlock may recover it; remove it to write this "
                         "tree\n");
  EXPECT_EQ(sourcesChanged(c), "");

  // Trusted by name, it is a journal like the user's own.
  CommandResult trusted = c.run("scan", "-q", "GRIDLOCK_SAFE_DIRECTORIES=/nonexistent:" + c.src);
  EXPECT_EQ(trusted.status, 2);
  EXPECT_NE(trusted.err.find("run `gridlock rewrite --recover --root " + c.src + "`"),
            std::string::npos)
      << trusted.err;
  CommandResult any = runCommand("GRIDLOCK_SAFE_DIRECTORIES='*' " + recoverCommand(c.src));
  EXPECT_EQ(any.status, 0) << any.err;
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), "planted\n");
}

// One planted in a directory above the tree (a shared /tmp) would block every run below it.
TEST(PlantedJournal, AJournalOfAnotherUserAboveTheTreeBlocksNothing) {
  if (::geteuid() != 0) GTEST_SKIP() << "a journal of another user needs root to plant";
  Case c("mpi");
  plantForeignJournal(c, c.dir, "src/halo.cpp");
  CommandResult scan = c.run("scan", "-q");
  EXPECT_EQ(scan.status, 0);
  EXPECT_EQ(scan.err, "gridlock: warning: " + c.dir +
                          "/.gridlock-journal: ignored, not a journal of yours: owned by uid "
                          "65534, not by you (uid 0); to trust it, set "
                          "GRIDLOCK_SAFE_DIRECTORIES=" +
                          c.dir + "\n");
  CommandResult apply = c.run("rewrite", "--apply -q");
  EXPECT_EQ(apply.status, 0) << apply.err;
  EXPECT_EQ(c.compareWithExpected(), "");
  // Trusted, it holds the tree below it.
  CommandResult trusted = c.run("scan", "-q", "GRIDLOCK_SAFE_DIRECTORIES=" + c.dir);
  EXPECT_EQ(trusted.status, 2);
  EXPECT_NE(trusted.err.find("run `gridlock rewrite --recover --root " + c.dir + "`"),
            std::string::npos)
      << trusted.err;
}

// A journal directory that is a link: never followed, whoever owns it.
TEST(PlantedJournal, AJournalDirectoryThatIsALinkIsIgnored) {
  Case c("mpi");
  plantJournal(c.dir + "/elsewhere", "halo.cpp", readFile(c.src + "/halo.cpp"), "planted\n");
  fs::create_directory_symlink(c.dir + "/elsewhere/.gridlock-journal",
                               c.src + "/.gridlock-journal");
  CommandResult scan = c.run("scan", "-q");
  EXPECT_EQ(scan.status, 0);
  EXPECT_EQ(scan.err, "gridlock: warning: " + c.src +
                          "/.gridlock-journal: ignored, not a journal of yours: a symbolic link, "
                          "which gridlock never makes\n");
  EXPECT_EQ(runCommand(recoverCommand(c.src)).status, 2);
  EXPECT_EQ(sourcesChanged(c), "");
  EXPECT_TRUE(fs::exists(c.dir + "/elsewhere/.gridlock-journal/old/0"));
}

// A source symlinked into the root from outside it is scanned, but never written: an apply
// writes only under the root, so its journal never names a file outside.
TEST(PlantedJournal, ApplyRefusesAFileThatLeadsOutsideTheRoot) {
  Case c("mpi");
  fs::create_directories(c.dir + "/outside");
  fs::rename(c.src + "/main.cpp", c.dir + "/outside/main.cpp");
  fs::create_symlink("../outside/main.cpp", c.src + "/main.cpp");
  CommandResult r = c.run("rewrite", "--apply -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: main.cpp: a link to " + fs::canonical(c.dir).string() +
                       "/outside/main.cpp, outside the root " + c.src +
                       "; gridlock writes only under the root; nothing was changed\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(readFile(c.dir + "/outside/main.cpp"), inputFile("mpi", "main.cpp"));
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), inputFile("mpi", "halo.cpp"));
}

}  // namespace
}  // namespace gridlock::test
