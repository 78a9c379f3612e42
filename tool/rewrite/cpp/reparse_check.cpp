#include "rewrite/cpp/reparse_check.h"

#include "rewrite/core/verify.h"

#include <algorithm>
#include <set>

namespace gridlock::rewrite::cpp {
namespace {

std::set<std::string> errorFiles(const index::Inventory& inv) {
  std::set<std::string> out;
  for (const auto& e : inv.parseErrors) out.insert(e.file);
  return out;
}

// Holds back the changed files behind each new parse error of `after`. False when some error
// names no changed file that is not held already.
bool holdBack(const index::Inventory& after, const std::set<std::string>& before, Round& round,
              bool& broken) {
  std::set<std::string> changed;
  for (const auto& c : round.prepared.changes) changed.insert(c.file);
  bool pinned = true;
  broken = false;
  for (const auto& e : after.parseErrors) {
    if (before.count(e.file)) continue;
    broken = true;
    round.log.push_back("the rewritten " + e.file + " does not compile:");
    for (const auto& m : e.messages) round.log.push_back("  " + m);
    // The TU's own file, and every changed file its errors name.
    std::string why = e.messages.empty() ? std::string("a compile error") : e.messages[0];
    bool found = false;
    for (const auto& c : changed) {
      bool named = c == e.file || std::find(e.files.begin(), e.files.end(), c) != e.files.end();
      if (named && !round.held.count(c)) {
        round.held[c] = why;
        found = true;
      }
    }
    pinned = pinned && found;
  }
  return pinned;
}

}  // namespace

const char* const kNotPinned =
    "the failure is not in a file the rewrite changed alone; rewrite rolled back; nothing "
    "written";

Check::Outcome ReparseCheck::run(Round& round) {
  bool broken = false;
  bool pinned = holdBack(round.after(), errorFiles(round.before), round, broken);
  if (broken && (!pinned || round.number > kMaxVerifyRounds)) {
    round.error = kNotPinned;
    return Outcome::Refuse;
  }
  return Outcome::Pass;
}

}  // namespace gridlock::rewrite::cpp
