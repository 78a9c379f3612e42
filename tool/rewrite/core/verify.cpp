#include "rewrite/core/verify.h"

#include "rewrite/core/planner.h"

#include <algorithm>

namespace gridlock::rewrite {
namespace {

// One backend's verified plan: its rounds until its checks pass, refuse, or it has nothing to do.
Verified verifyOne(Rewriter& backend, const index::Inventory& inv, const rules::RuleSet& rules,
                   const std::string& root, const Rescan& rescan) {
  static const std::map<std::string, std::string> unchanged;
  Verified v;
  int& number = v.rounds[backend.language()];
  for (number = 1;; ++number) {
    std::unique_ptr<PlanState> planned = planWith(backend, {inv, rules, root, v.held, unchanged});
    v.prepared = backend.finish(*planned, root);
    // The round's plan is the result, whatever ends it.
    auto keep = [&]() { v.plan = std::move(planned->plan); };
    if (!v.prepared.ok() || v.prepared.changes.empty()) {
      keep();
      return v;
    }
    Round round{number,     inv,    *planned,     v.prepared, v.held, v.log,
                v.warnings, rescan, std::nullopt, false,      ""};
    const size_t held = v.held.size();
    bool next = false;
    for (Check* check : backend.checks()) {
      if (check->onlyWhenNothingHeld() && v.held.size() > held) continue;
      Check::Outcome outcome = check->run(round);
      if (outcome == Check::Outcome::Refuse) {
        v.error = round.error;
        keep();
        return v;
      }
      if (outcome == Check::Outcome::NextRound) {
        next = true;
        break;
      }
    }
    if (next) continue;
    if (v.held.size() > held || round.replan) {
      if (number > kMaxVerifyRounds) {
        v.error = backend.tooManyRounds();
        keep();
        return v;
      }
      continue;
    }
    std::map<std::string, std::string> overlay;  // root-relative, as a plan reads files
    for (const auto& c : v.prepared.changes) overlay[c.file] = c.after;
    std::unique_ptr<PlanState> second =
        planWith(backend, {round.after(), rules, root, v.held, overlay});
    if (!second->plan.edits.empty()) v.error = backend.notIdempotent(second->plan);
    keep();
    return v;
  }
}

// `one` (`by`'s) into `into`: changes in file order; refusals, warnings, log appended; held
// files; the first error kept.
void merge(const Rewriter& by, const index::Inventory& inv, Verified one, Verified& into) {
  mergePlan(by, inv, std::move(one.plan), into.plan);
  auto& changes = into.prepared.changes;
  for (auto& c : one.prepared.changes) changes.push_back(std::move(c));
  std::sort(changes.begin(), changes.end(),
            [](const apply::FileChange& a, const apply::FileChange& b) { return a.file < b.file; });
  auto append = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
    to.insert(to.end(), from.begin(), from.end());
  };
  append(into.prepared.conflicts, one.prepared.conflicts);
  append(into.prepared.changedFiles, one.prepared.changedFiles);
  append(into.prepared.errors, one.prepared.errors);
  append(into.warnings, one.warnings);
  append(into.log, one.log);
  for (const auto& [file, why] : one.held) into.held[file] = why;
  if (into.error.empty()) into.error = one.error;
  into.rounds.insert(one.rounds.begin(), one.rounds.end());
}

}  // namespace

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const Rescan& rescan, Rewriters& backends) {
  checkOwned(inv, backends);
  Verified out;
  out.plan.verdicts.resize(inv.reads.size());
  // A rewrite that could never be verified is refused now, not after planning and finishing.
  for (const auto& backend : backends)
    if (ownsAny(*backend, inv)) {
      out.error = backend->cannotVerify();
      if (!out.error.empty()) return out;
    }
  for (auto& backend : backends) {
    if (!ownsAny(*backend, inv)) continue;
    merge(*backend, inv, verifyOne(*backend, inv, rules, root, rescan), out);
    if (!out.error.empty()) break;
  }
  return out;
}

}  // namespace gridlock::rewrite
