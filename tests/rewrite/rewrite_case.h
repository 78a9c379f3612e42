// A golden rewrite case (fixtures/rewrite/<case>/) copied to a fresh directory, the gridlock
// binary to run on it, and the tree comparisons the rewrite tests make.
#pragma once

#include "pipeline/pipeline.h"
#include "rewrite/cpp/finish.h"
#include "support/run_command.h"

#include <sys/types.h>

#include <ostream>
#include <string>
#include <vector>

namespace gridlock::test {

extern const std::string kBin;
extern const std::string kFixtures;

// Every regular file under `dir`, relative to it, sorted; with `all`, other entries too
// (directories end in '/', symlinks, FIFOs), hidden ones included.
std::vector<std::string> filesUnder(const std::string& dir, bool all = false);

// The file the rewrite must produce from the case's input `file` (its CHECK-FIXES
// annotations, rewrite/fix_annotations.h).
std::string expectedFile(const std::string& caseName, const std::string& file);
// The case's input `file`, byte for byte.
std::string inputFile(const std::string& caseName, const std::string& file);

// A fresh copy of a case: DIR/src (the input) and DIR/build/compile_commands.json. A case
// with a file `paths` (one root-relative path a line) runs every command on those paths, as
// `gridlock rewrite --apply pkg/helper.py` would: a partial run (docs/rewrite.md).
struct Case {
  std::string name, dir, src, build;
  std::vector<std::string> paths;  // absolute: under src
  explicit Case(const std::string& n);
  ~Case();
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;
  std::string rules() const;
  std::string args() const;
  // `gridlock SUB -p BUILD --rules RULES --root SRC EXTRA PATHS...`, with `env` ("A=1 B=2")
  // before it.
  CommandResult run(const std::string& sub, const std::string& extra = "",
                    const std::string& env = "") const;
  // "" when every file of src is what its input's CHECK-FIXES annotations say, byte for byte;
  // else a unified diff (expected -> actual) of each file that is not.
  std::string compareWithExpected() const;
  // "" when src equals input/, byte for byte; else a unified diff of each file that is not.
  std::string compareWithInput() const;
  // "" when the reads `scan --plan` reports in src (writes aside) are exactly the ones its
  // CHECK-LEFT annotations name, line by line; else each line that differs. Parse errors fail.
  std::string compareRemaining() const;
};

// The case scanned in process (2 jobs); with `rewriteFacts`, as `rewrite` scans it.
pipeline::ScanRun scanCase(const Case& c, bool rewriteFacts = false);
// The case's rewrite, planned and prepared in process (no re-parse: the golden cases compile).
apply::Prepared prepareCase(const Case& c);

// A file's permission bits (07777), owner and group, as stat gives them.
struct Stat {
  unsigned mode;
  uid_t uid;
  gid_t gid;
  bool operator==(const Stat&) const = default;
};
Stat statOf(const std::string& path);
void printTo(const Stat& s, std::ostream* os);

// A small tmpfs mounted on a fresh directory, to fill a disk for real (needs root and
// CAP_SYS_ADMIN; `mounted` false otherwise, and the test skips). Unmounted when destroyed.
struct SmallTmpfs {
  std::string dir;
  bool mounted = false;
  explicit SmallTmpfs(size_t kilobytes);
  ~SmallTmpfs();
};

}  // namespace gridlock::test
