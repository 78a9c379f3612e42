// The apply library on its own, as a rewriter of any language calls it (apply/): a Python
// file's edits made into a change (identical edits once, an insertion joined to the
// replacement it starts, the new contents), refused when they overlap or the file changed
// since the scan, shown as a diff, exported as YAML, written and left with no journal.
// This test links gridlock_apply and no compiler.
#include "apply/edits.h"
#include "apply/journal.h"
#include "apply/replacements_yaml.h"
#include "apply/unified_diff.h"
#include "apply/write.h"
#include "support/file_io.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gridlock::apply {
namespace {

const std::string kSource = "import torch\nx = get_rank()\ny = 1\n";

class Apply : public ::testing::Test {
 protected:
  void SetUp() override {
    root = test::makeTempDir("apply");
    test::writeFile(root + "/m.py", kSource);
    digests["m.py"] = support::md5Hex(kSource);
  }
  void TearDown() override { std::filesystem::remove_all(root); }

  // `get_rank()` (bytes 17..27) made `group.rank()`.
  static Edit substitute() {
    return {"m.py", 17, 10, "group.rank()", facts::Strategy::Substitute, "m.py:2:5 substitute"};
  }

  std::string root;
  std::map<std::string, std::string> digests;
};

TEST_F(Apply, PreparesIdenticalEditsOnceAndJoinsAnInsertionToTheReplacementItStarts) {
  Edit insert = {"m.py", 17, 0, "(", facts::Strategy::Thread, "m.py:2:5 thread"};
  Edit close = {"m.py", 27, 0, ")", facts::Strategy::Thread, "m.py:2:15 thread"};
  Prepared twice = prepare({substitute(), substitute()}, digests, root);
  ASSERT_TRUE(twice.ok());
  ASSERT_EQ(twice.changes.size(), 1u);
  ASSERT_EQ(twice.changes[0].replacements.size(), 1u);
  EXPECT_EQ(twice.changes[0].after, "import torch\nx = group.rank()\ny = 1\n");

  Prepared p = prepare({substitute(), close, insert}, digests, root);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p.changes.size(), 1u);
  const FileChange& c = p.changes[0];
  EXPECT_EQ(c.file, "m.py");
  EXPECT_EQ(c.path, root + "/m.py");
  EXPECT_EQ(c.before, kSource);
  EXPECT_EQ(c.after, "import torch\nx = (group.rank())\ny = 1\n");
  ASSERT_EQ(c.replacements.size(), 2u);
  EXPECT_EQ(c.replacements[0].offset, 17u);
  EXPECT_EQ(c.replacements[0].length, 10u);
  EXPECT_EQ(c.replacements[0].text, "(group.rank()");
  EXPECT_EQ(c.replacements[1].offset, 27u);
  EXPECT_EQ(c.replacements[1].length, 0u);
  EXPECT_EQ(c.replacements[1].text, ")");
  EXPECT_EQ(overlayOf(p), (std::map<std::string, std::string>{{c.path, c.after}}));
}

TEST_F(Apply, RefusesOverlappingEditsAndFilesChangedSinceTheScan) {
  Edit other = {"m.py", 21, 3, "size", facts::Strategy::Substitute, "m.py:2:9 substitute"};
  Prepared clash = prepare({substitute(), other}, digests, root);
  EXPECT_TRUE(clash.changes.empty());
  ASSERT_EQ(clash.conflicts.size(), 1u);
  EXPECT_EQ(clash.conflicts[0],
            "m.py: m.py:2:9 substitute (bytes 21+3) overlaps m.py:2:5 substitute (bytes 17+10)");

  Edit late = {"m.py", 40, 1, "", facts::Strategy::Substitute, "m.py:4:1 substitute"};
  Prepared past = prepare({late}, digests, root);
  EXPECT_EQ(past.errors, std::vector<std::string>{"m.py: edit m.py:4:1 substitute lies past the "
                                                  "end of the file"});

  digests["m.py"] = support::md5Hex("import torch\n");
  Prepared changed = prepare({substitute()}, digests, root);
  EXPECT_EQ(changed.changedFiles, std::vector<std::string>{"m.py: changed since it was scanned"});
  digests.clear();
  Prepared unscanned = prepare({substitute()}, digests, root);
  EXPECT_EQ(unscanned.changedFiles,
            std::vector<std::string>{"m.py: the scan recorded no digest for it"});
}

TEST_F(Apply, DiffsExportsAndWritesTheChange) {
  Prepared p = prepare({substitute()}, digests, root);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(unifiedDiff(p),
            "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n import torch\n-x = get_rank()\n"
            "+x = group.rank()\n y = 1\n");
  EXPECT_EQ(exportYaml(p, "main.py"),
            "---\nMainSourceFile:  main.py\nReplacements:\n  - FilePath:        '" + root +
                "/m.py'\n    Offset:          17\n    Length:          10\n"
                "    ReplacementText: 'group.rank()'\n...\n");
  writeAll(p, root);
  EXPECT_EQ(test::readFile(root + "/m.py"), "import torch\nx = group.rank()\ny = 1\n");
  EXPECT_FALSE(std::filesystem::exists(root + "/" + std::string(kJournalDirName)));
}

TEST_F(Apply, ExportRefusesTextThatIsNotUtf8) {
  Prepared p;
  p.changes.push_back({"m.py", root + "/m.py", kSource, "x", {{0, 1, "\xff"}}});
  try {
    exportYaml(p, "");
    FAIL() << "exported";
  } catch (const WriteRefused& e) {
    EXPECT_EQ(e.problems, std::vector<std::string>{
                              "m.py: not UTF-8, which the YAML of --export-fixes cannot carry; "
                              "use --diff or --apply"});
  }
}

}  // namespace
}  // namespace gridlock::apply
