#include "pair/merge.h"

#include "pair/normalise.h"

#include <algorithm>
#include <utility>

namespace gridlock::pair {

TestIndex indexRuns(const std::vector<const RunResults*>& firstRuns, int forcedRanks) {
  TestIndex index;
  for (const RunResults* run : firstRuns)
    for (const ResultFile& f : run->files) {
      index.ranksOf[f.source].insert(f.rank);
      for (const Observation& o : f.tests) index.sourcesOf[o.id].insert(f.source);
    }
  for (auto& [source, ranks] : index.ranksOf) {
    int top = forcedRanks > 0 ? forcedRanks - 1 : *ranks.rbegin();
    for (int r = 0; r <= top; ++r) ranks.insert(r);
  }
  return index;
}

namespace {

using SourceRank = std::pair<std::string, int>;

// Worse outcomes win when one file names a test twice (e.g. --gtest_repeat).
int severity(Outcome o) {
  switch (o) {
    case Outcome::Skip:
      return 0;
    case Outcome::Pass:
      return 1;
    case Outcome::Fail:
      return 2;
    case Outcome::Crash:
      return 3;
  }
  return 0;
}

struct RunView {
  std::map<TestId, std::map<SourceRank, const Observation*>> obs;  // test -> (source, rank)
  std::map<std::string, std::map<int, const ResultFile*>> files;   // source -> rank -> file
};

RunView view(const RunResults& run) {
  RunView v;
  for (const ResultFile& f : run.files) {
    auto& slot = v.files[f.source][f.rank];
    if (!slot || slot->truncated) slot = &f;  // a complete file beats a truncated duplicate
    for (const Observation& o : f.tests) {
      const Observation*& seen = v.obs[o.id][{f.source, f.rank}];
      if (!seen || severity(o.outcome) > severity(seen->outcome)) seen = &o;
    }
  }
  return v;
}

// Why (source, rank) has no result for a test that it should have reported.
std::string whyMissing(const RunView& v, const std::string& source, int rank) {
  auto s = v.files.find(source);
  const ResultFile* f = nullptr;
  if (s != v.files.end()) {
    auto r = s->second.find(rank);
    if (r != s->second.end()) f = r->second;
  }
  if (!f) return "no result: " + source + " wrote no result file (crashed or timed out?)";
  if (f->truncated)
    return "no result: " + f->path + ": " + f->problem + " (crashed while writing?)";
  return "no result in " + f->path;
}

// Per-rank reasons a test is invalid. The merged message is the lowest rank's reason; the
// ranks hit go to failedRanks, so the reason itself groups across tests.
struct Problems {
  std::vector<std::pair<int, std::string>> list;
  void add(int rank, std::string why) { list.emplace_back(rank, std::move(why)); }
  bool empty() const { return list.empty(); }
  void into(Merged& m) {
    std::sort(list.begin(), list.end());
    m.status = Status::Invalid;
    m.message = list.front().second;
    for (auto& [r, _] : list)
      if (m.failedRanks.empty() || m.failedRanks.back() != r) m.failedRanks.push_back(r);
  }
};

Merged mergeTest(const TestId& id, const RunView& v, const TestIndex& index,
                 MissingSource missing) {
  Merged m;
  auto found = v.obs.find(id);
  std::set<std::string> reporting;
  if (found != v.obs.end())
    for (auto& [sr, _] : found->second) reporting.insert(sr.first);
  Problems problems;

  if (reporting.empty()) {
    // Not reported anywhere: absent, unless a binary that should report it left no (complete)
    // file, in which case the test may well be there but its binary died.
    auto sources = index.sourcesOf.find(id);
    if (sources != index.sourcesOf.end())
      for (const std::string& s : sources->second) {
        auto files = v.files.find(s);
        bool none = files == v.files.end();
        if (none && missing == MissingSource::Absent) continue;
        const std::set<int>& ranks = index.ranksOf.at(s);
        m.ranks += static_cast<int>(ranks.size());
        ++m.runs;
        for (int r : ranks) {
          bool ok = !none && files->second.count(r) && !files->second.at(r)->truncated;
          if (!ok) problems.add(r, whyMissing(v, s, r));
        }
      }
    if (!problems.empty()) problems.into(m);
    m.unreported = !problems.empty();
    return m;
  }

  std::vector<std::pair<int, const Observation*>> results;  // by rank, over reporting sources
  m.runs = static_cast<int>(reporting.size());
  for (const std::string& s : reporting) {
    auto known = index.ranksOf.find(s);
    std::set<int> ranks = known != index.ranksOf.end() ? known->second : std::set<int>{};
    for (auto& [sr, _] : found->second)
      if (sr.first == s) ranks.insert(sr.second);  // a rerun-only source still counts its ranks
    for (int r : ranks) {
      ++m.ranks;
      auto o = found->second.find({s, r});
      if (o == found->second.end()) {
        problems.add(r, whyMissing(v, s, r));
        m.unreported = true;
      } else if (o->second->outcome == Outcome::Crash)
        problems.add(r, "crashed: " + o->second->message);
      else
        results.emplace_back(r, o->second);
    }
  }
  std::sort(results.begin(), results.end(), [](auto& a, auto& b) { return a.first < b.first; });
  if (!problems.empty()) {
    problems.into(m);
    return m;
  }

  std::vector<std::string> failedMessages;
  bool allSkipped = true;
  for (auto& [r, o] : results) {
    if (o->outcome == Outcome::Fail) {
      m.failedRanks.push_back(r);
      failedMessages.push_back(normaliseMessage(o->message));
      if (m.message.empty()) m.message = o->message;
    }
    if (o->outcome != Outcome::Skip) allSkipped = false;
  }
  if (!m.failedRanks.empty()) {
    m.status = Status::Fail;
    m.identicalOnAllRanks =
        m.ranks > 1 && static_cast<int>(m.failedRanks.size()) == m.ranks &&
        std::all_of(failedMessages.begin(), failedMessages.end(),
                    [&](const std::string& s) { return s == failedMessages.front(); });
  } else if (allSkipped) {
    m.status = Status::Skip;
    m.message = results.front().second->message;
  } else {
    // Skipped on some ranks and passed on the rest: it passed wherever it ran.
    m.status = Status::Pass;
  }
  return m;
}

}  // namespace

std::map<TestId, Merged> mergeRun(const RunResults& run, const TestIndex& index,
                                  MissingSource missing, const std::set<TestId>* only) {
  RunView v = view(run);
  std::set<TestId> ids;
  if (only) {
    ids = *only;
  } else {
    for (auto& [id, _] : index.sourcesOf) ids.insert(id);
    for (auto& [id, _] : v.obs) ids.insert(id);
  }
  std::map<TestId, Merged> out;
  for (const TestId& id : ids) out.emplace(id, mergeTest(id, v, index, missing));
  return out;
}

}  // namespace gridlock::pair
