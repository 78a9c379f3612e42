#include "rewrite/verify.h"

#include <algorithm>
#include <set>

namespace gridlock::rewrite {
namespace {

std::set<std::string> errorFiles(const index::Inventory& inv) {
  std::set<std::string> out;
  for (const auto& e : inv.parseErrors) out.insert(e.file);
  return out;
}

// Holds back the changed files behind each new parse error of `after`. False when some error
// names no changed file that is not held already.
bool holdBack(const index::Inventory& after, const std::set<std::string>& before,
              const apply::Prepared& prepared, Verified& v, bool& broken) {
  std::set<std::string> changed;
  for (const auto& c : prepared.changes) changed.insert(c.file);
  bool pinned = true;
  broken = false;
  for (const auto& e : after.parseErrors) {
    if (before.count(e.file)) continue;
    broken = true;
    v.log.push_back("the rewritten " + e.file + " does not compile:");
    for (const auto& m : e.messages) v.log.push_back("  " + m);
    // The TU's own file, and every changed file its errors name.
    std::string why = e.messages.empty() ? std::string("a compile error") : e.messages[0];
    bool found = false;
    for (const auto& c : changed) {
      bool named = c == e.file || std::find(e.files.begin(), e.files.end(), c) != e.files.end();
      if (named && !v.held.count(c)) {
        v.held[c] = why;
        found = true;
      }
    }
    pinned = pinned && found;
  }
  return pinned;
}

}  // namespace

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const Rescan& rescan) {
  Verified v;
  const std::set<std::string> before = errorFiles(inv);
  for (;;) {
    ++v.rounds;
    std::unique_ptr<CppState> planned = planState(inv, rules, &v.held);
    v.prepared = prepare(*planned, root);
    v.plan = std::move(planned->plan);
    if (!v.prepared.ok() || v.prepared.changes.empty()) return v;
    index::Inventory after = rescan(apply::overlayOf(v.prepared));
    bool broken = false;
    bool pinned = holdBack(after, before, v.prepared, v, broken);
    if (broken && (!pinned || v.rounds > kMaxVerifyRounds)) {
      v.error =
          "the failure is not in a file the rewrite changed alone; rewrite rolled back; "
          "nothing written";
      return v;
    }
    if (broken) continue;
    Plan second = plan(after, rules, &v.held);
    if (!second.edits.empty())
      v.error = "internal: a second pass would still edit " + std::to_string(second.edits.size()) +
                " place(s), first " + second.edits[0].why + "; nothing written";
    return v;
  }
}

}  // namespace gridlock::rewrite
