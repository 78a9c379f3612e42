// A private copy of the scan fixture (fixtures/scan with the rule packs it extends) and a
// compile database for it, so a test can edit sources, headers, rules and commands between
// scans without touching the checkout or other tests.
#pragma once

#include "support/run_command.h"

#include <string>

namespace gridlock::test {

class FixtureCopy {
 public:
  // Copies the fixture; every file's mtime is set a minute back, so that an edit shows in it
  // (the ctime, which no program can set back, is now: a first scan's stamps are racy, and
  // the digest decides, until two seconds have passed).
  FixtureCopy();
  ~FixtureCopy();
  FixtureCopy(const FixtureCopy&) = delete;
  FixtureCopy& operator=(const FixtureCopy&) = delete;

  std::string dir;    // the temporary directory holding everything
  std::string root;   // dir/fixtures/scan
  std::string build;  // dir/build: compile_commands.json, and the default cache
  std::string rules;  // root/gridlock.json

  // " -p BUILD --rules RULES --root ROOT"
  std::string args() const;
  // The cache's default place.
  std::string cacheDir() const { return build + "/.gridlock-cache"; }
  // Writes `text` to the root-relative `path` (its mtime is now).
  void write(const std::string& path, const std::string& text) const;
  std::string read(const std::string& path) const;
  // Replaces `from` with `to` in the compile database (once; throws when absent).
  void editDatabase(const std::string& from, const std::string& to) const;
};

// `gridlock` and its arguments, run; `env` goes before it ("VAR=value").
CommandResult gridlock(const std::string& arguments, const std::string& env = "");

// The JSON report without summary.cache, the one field that says how a run got its facts,
// not what they are.
std::string withoutCacheCounts(const std::string& json);

}  // namespace gridlock::test
