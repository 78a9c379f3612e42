#include "pair/comparison.h"

#include "pair/categorise.h"
#include "pair/command_end.h"
#include "pair/normalise.h"

#include <algorithm>

namespace gridlock::pair {

int exitCode(const Comparison& c) {
  auto count = [&](Category k) {
    auto it = c.summary.find(k);
    return it == c.summary.end() ? 0 : it->second;
  };
  bool incident = std::any_of(c.incidents.begin(), c.incidents.end(),
                              [](const Incident& i) { return !i.shared; });
  return count(Category::NewFailure) + count(Category::Invalid) > 0 || incident ? 1 : 0;
}

Pairing::Pairing(const RunResults& baseline, const RunResults& change, int forcedRanks)
    : index_(indexRuns({&baseline, &change}, forcedRanks)),
      baseline_(mergeRun(baseline, index_, MissingSource::Absent)),
      change_(mergeRun(change, index_, MissingSource::Crash)) {
  // For its incident the baseline counts as the change does: a binary with no file at all there
  // had not reported, whether or not it is one the change added.
  record("baseline", 0, baseline.end,
         isIncident(baseline.end) ? mergeRun(baseline, index_, MissingSource::Crash)
                                  : std::map<TestId, Merged>{});
  record("change", 0, change.end, change_);
}

void Pairing::record(const std::string& tree, int run, const CommandEnd& end,
                     const std::map<TestId, Merged>& merged) {
  RunRecord r{tree, run, end, {}};
  if (isIncident(end))
    for (auto& [id, m] : merged)
      if (m.unreported) r.unreported.push_back(id.display());
  runs_.push_back(std::move(r));
}

namespace {
Status statusOf(const std::map<TestId, Merged>& m, const TestId& id) {
  auto it = m.find(id);
  return it == m.end() ? Status::Absent : it->second.status;
}
}  // namespace

std::set<TestId> Pairing::pendingReruns() const {
  std::set<TestId> ids;
  for (auto& [id, c] : change_)
    if (needsRerun(statusOf(baseline_, id), c.status) && !passedOnRerun_.count(id)) ids.insert(id);
  return ids;
}

void Pairing::addRerun(const RunResults& rerun) {
  std::set<TestId> pending = pendingReruns();
  if (pending.empty()) return;
  auto merged = mergeRun(rerun, index_, MissingSource::Crash, &pending);
  for (const TestId& id : pending) {
    int n = ++reruns_[id];
    if (merged.at(id).status == Status::Pass) passedOnRerun_[id] = n;
  }
  record("change", static_cast<int>(runs_.size()) - 1, rerun.end, merged);
}

Comparison Pairing::result() const {
  Comparison out;
  for (Category k : kAllCategories) out.summary[k] = 0;
  std::set<TestId> ids;
  for (auto& [id, _] : baseline_) ids.insert(id);
  for (auto& [id, _] : change_) ids.insert(id);
  static const Merged none;
  for (const TestId& id : ids) {
    auto b = baseline_.find(id), c = change_.find(id);
    const Merged& bm = b == baseline_.end() ? none : b->second;
    const Merged& cm = c == change_.end() ? none : c->second;
    TestRow row;
    row.id = id.display();
    row.suite = id.suite;
    row.name = id.name;
    row.baseline = bm.status;
    row.change = cm.status;
    if (auto r = reruns_.find(id); r != reruns_.end()) row.reruns = r->second;
    if (auto p = passedOnRerun_.find(id); p != passedOnRerun_.end()) row.passedOnRerun = p->second;
    row.category = categorise(bm.status, cm.status, row.passedOnRerun > 0);
    auto troubled = [](Status s) { return s == Status::Fail || s == Status::Invalid; };
    const Merged* source = troubled(cm.status) ? &cm : troubled(bm.status) ? &bm : nullptr;
    if (source) {
      row.message = source->message;
      row.signature = normaliseMessage(source->message);
      row.failedRanks = source->failedRanks;
      row.runs = source->runs;
      row.identicalOnAllRanks = source->identicalOnAllRanks;
    }
    row.ranks = std::max(bm.ranks, cm.ranks);
    out.ranks = std::max(out.ranks, row.ranks);
    ++out.summary[row.category];
    if (row.category == Category::PassedBoth && bm.status == Status::Skip) ++out.skippedBoth;
    out.tests.push_back(std::move(row));
  }
  out.signatures = groupSignatures(out.tests);
  for (const RunRecord& r : runs_) {
    if (!isIncident(r.end)) continue;
    const CommandEnd& other = r.tree == "baseline" ? runs_[1].end : runs_[0].end;
    out.incidents.push_back({r.tree, r.run, r.end, sameWay(r.end, other), r.unreported});
  }
  return out;
}

std::vector<Signature> groupSignatures(const std::vector<TestRow>& rows) {
  std::map<std::string, Signature> groups;
  for (const TestRow& row : rows) {
    bool problem = row.category == Category::NewFailure || row.category == Category::StillFailing ||
                   row.category == Category::Flaky || row.category == Category::Invalid;
    if (!problem || row.signature.empty()) continue;
    Signature& s = groups[row.signature];
    if (s.count == 0) {
      s.message = row.signature;
      s.identicalOnAllRanks = true;
    }
    ++s.count;
    ++s.categories[row.category];
    s.identicalOnAllRanks = s.identicalOnAllRanks && row.identicalOnAllRanks;
    s.tests.push_back(row.id);
  }
  std::vector<Signature> out;
  for (auto& [_, s] : groups) out.push_back(std::move(s));
  std::sort(out.begin(), out.end(), [](const Signature& a, const Signature& b) {
    return a.count != b.count ? a.count > b.count : a.message < b.message;
  });
  return out;
}

Comparison compare(const TreeResults& baseline, const TreeResults& change, int forcedRanks) {
  Pairing pairing(baseline.first, change.first, forcedRanks);
  for (const RunResults& rerun : change.reruns) pairing.addRerun(rerun);
  return pairing.result();
}

}  // namespace gridlock::pair
