// A user's edit made while `rewrite --apply` writes is never overwritten: every file's digest
// is checked again just before the first rename and again just before its own; a change
// refuses the write (exit 2, the file named) and puts back what was already replaced. The edit
// is injected at a named step (a test hook in process, GRIDLOCK_STOP_AT through the binary),
// never timed with sleeps.
#include "rewrite/rewrite_case.h"

#include "apply/write.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kEdit = "// the user's line, typed while gridlock wrote\n";

void append(const std::string& path, const std::string& text) {
  writeFile(path, readFile(path) + text);
}

std::string input(const Case& c, const std::string& file) {
  return readFile(kFixtures + "/" + c.name + "/input/" + file);
}

// The mpi case changes three files, in this order.
const std::vector<std::string> kMpiFiles = {"halo.cpp", "halo.h", "main.cpp"};

TEST(ConcurrentEdit, EditWhileTemporariesAreWrittenRefusesAndChangesNothing) {
  Case c("mpi");
  apply::Prepared p = prepareCase(c);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p.changes.size(), 3u);
  apply::WriteOptions o;
  o.onStep = [&](apply::ApplyStep s, size_t n) {
    if (s == apply::ApplyStep::Temp && n == 1) append(c.src + "/halo.cpp", kEdit);
  };
  try {
    apply::writeAll(p, c.src, o);
    ADD_FAILURE() << "the edit was not noticed";
  } catch (const apply::WriteRefused& e) {
    EXPECT_EQ(e.problems, (std::vector<std::string>{
                              "halo.cpp: changed while the rewrite was writing; scan again; "
                              "nothing was changed"}));
  }
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp") + kEdit);
  EXPECT_EQ(readFile(c.src + "/halo.h"), input(c, "halo.h"));
  EXPECT_EQ(readFile(c.src + "/main.cpp"), input(c, "main.cpp"));
  EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);  // no temporary, no journal
}

TEST(ConcurrentEdit, EditBetweenRenamesPutsBackWhatWasAlreadyReplaced) {
  Case c("mpi");
  apply::Prepared p = prepareCase(c);
  ASSERT_EQ(p.changes.size(), 3u);
  apply::WriteOptions o;
  // halo.cpp is replaced; before halo.h is, the user edits it.
  o.onStep = [&](apply::ApplyStep s, size_t n) {
    if (s == apply::ApplyStep::Renamed && n == 0) append(c.src + "/halo.h", kEdit);
  };
  try {
    apply::writeAll(p, c.src, o);
    ADD_FAILURE() << "the edit was not noticed";
  } catch (const apply::WriteRefused& e) {
    EXPECT_EQ(e.problems, (std::vector<std::string>{
                              "halo.h: changed while the rewrite was writing; scan again; every "
                              "file replaced was put back as it was"}));
  }
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp"));
  EXPECT_EQ(readFile(c.src + "/halo.h"), input(c, "halo.h") + kEdit);
  EXPECT_EQ(readFile(c.src + "/main.cpp"), input(c, "main.cpp"));
  EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);
}

TEST(ConcurrentEdit, FileDeletedBetweenScanAndWriteIsRefused) {
  Case c("mpi");
  apply::Prepared p = prepareCase(c);
  ASSERT_EQ(p.changes.size(), 3u);
  fs::remove(c.src + "/halo.h");
  try {
    apply::writeAll(p, c.src);
    ADD_FAILURE() << "the deletion was not noticed";
  } catch (const apply::WriteRefused& e) {
    EXPECT_EQ(
        e.problems,
        (std::vector<std::string>{"halo.h: deleted since it was scanned; nothing was changed"}));
  }
  EXPECT_FALSE(fs::exists(c.src + "/halo.h"));
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp"));
  EXPECT_EQ(filesUnder(c.src, true), (std::vector<std::string>{"halo.cpp", "main.cpp"}));
}

TEST(ConcurrentEdit, FileReplacedByADirectoryBetweenScanAndWriteIsRefused) {
  Case c("mpi");
  apply::Prepared p = prepareCase(c);
  ASSERT_EQ(p.changes.size(), 3u);
  fs::remove(c.src + "/halo.h");
  fs::create_directory(c.src + "/halo.h");
  try {
    apply::writeAll(p, c.src);
    ADD_FAILURE() << "the directory was not noticed";
  } catch (const apply::WriteRefused& e) {
    EXPECT_EQ(e.problems, (std::vector<std::string>{"halo.h: a directory now, not the file that "
                                                    "was scanned; nothing was changed"}));
  }
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp"));
  EXPECT_EQ(readFile(c.src + "/main.cpp"), input(c, "main.cpp"));
  EXPECT_EQ(filesUnder(c.src, true), (std::vector<std::string>{"halo.cpp", "halo.h/", "main.cpp"}));
}

TEST(ConcurrentEdit, FileReplacedByADirectoryWhileWritingPutsBackWhatWasReplaced) {
  Case c("mpi");
  apply::Prepared p = prepareCase(c);
  ASSERT_EQ(p.changes.size(), 3u);
  apply::WriteOptions o;
  // halo.cpp is replaced; before halo.h is, it becomes a directory.
  o.onStep = [&](apply::ApplyStep s, size_t n) {
    if (s != apply::ApplyStep::Renamed || n != 0) return;
    fs::remove(c.src + "/halo.h");
    fs::create_directory(c.src + "/halo.h");
  };
  try {
    apply::writeAll(p, c.src, o);
    ADD_FAILURE() << "the directory was not noticed";
  } catch (const apply::WriteRefused& e) {
    EXPECT_EQ(e.problems, (std::vector<std::string>{
                              "halo.h: became a directory while the rewrite was writing; every "
                              "file replaced was put back as it was"}));
  }
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp"));
  EXPECT_EQ(readFile(c.src + "/main.cpp"), input(c, "main.cpp"));
  EXPECT_EQ(filesUnder(c.src, true), (std::vector<std::string>{"halo.cpp", "halo.h/", "main.cpp"}));
}

TEST(ConcurrentEdit, FileDeletedWhileWritingPutsBackWhatWasReplacedAndStaysDeleted) {
  Case c("mpi");
  apply::Prepared p = prepareCase(c);
  ASSERT_EQ(p.changes.size(), 3u);
  apply::WriteOptions o;
  // halo.cpp and halo.h are replaced; before main.cpp is, the user deletes it.
  o.onStep = [&](apply::ApplyStep s, size_t n) {
    if (s == apply::ApplyStep::Renamed && n == 1) fs::remove(c.src + "/main.cpp");
  };
  try {
    apply::writeAll(p, c.src, o);
    ADD_FAILURE() << "the deletion was not noticed";
  } catch (const apply::WriteRefused& e) {
    EXPECT_EQ(e.problems, (std::vector<std::string>{
                              "main.cpp: deleted while the rewrite was writing; every file "
                              "replaced was put back as it was"}));
  }
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp"));
  EXPECT_EQ(readFile(c.src + "/halo.h"), input(c, "halo.h"));
  EXPECT_EQ(filesUnder(c.src, true), (std::vector<std::string>{"halo.cpp", "halo.h"}));
}

// Through the binary, as the issue saw it: the edit lands while `rewrite --apply` runs.
TEST(ConcurrentEdit, ApplyExitsTwoNamingTheFileEditedDuringTheWrite) {
  Case c("mpi");
  bool edited = false;
  Spawned r = runStopping(
      {kBin, "rewrite", "-p", c.build, "--rules", c.rules(), "--root", c.src, "--apply", "-j", "2"},
      {"GRIDLOCK_STOP_AT=apply-renamed:1"}, [&] {
        append(c.src + "/main.cpp", kEdit);
        edited = true;
      });
  EXPECT_TRUE(edited) << "the rewrite never stopped at apply-renamed:1";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("gridlock: error: main.cpp: changed while the rewrite was writing; scan "
                       "again; every file replaced was put back as it was\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("rewritten"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(c.src + "/main.cpp"), input(c, "main.cpp") + kEdit);
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), input(c, "halo.cpp"));
  EXPECT_EQ(readFile(c.src + "/halo.h"), input(c, "halo.h"));
  EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);
}

}  // namespace
}  // namespace gridlock::test
