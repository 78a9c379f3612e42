#include "frontend/reaching_calls.h"

#include <deque>
#include <map>

namespace gridlock::frontend {

std::set<std::string> reachingUsrs(const std::set<std::string>& seeds,
                                   const std::vector<std::pair<std::string, std::string>>& edges) {
  std::multimap<std::string, std::string> callersOf;
  for (const auto& [caller, callee] : edges) callersOf.emplace(callee, caller);
  std::set<std::string> reaching(seeds);
  std::deque<std::string> work(seeds.begin(), seeds.end());
  while (!work.empty()) {
    auto [lo, hi] = callersOf.equal_range(work.front());
    work.pop_front();
    for (auto it = lo; it != hi; ++it)
      if (reaching.insert(it->second).second) work.push_back(it->second);
  }
  return reaching;
}

void keepReachingCalls(facts::TuFacts& tu, FactsMark from, const std::set<std::string>& reaching) {
  std::set<std::pair<std::string, unsigned>> dependent;
  for (const auto& d : tu.dependentCalls) dependent.emplace(d.file, d.rparen);
  size_t kept = from.calls;
  for (size_t i = from.calls; i < tu.calls.size(); ++i) {
    facts::CallFact& c = tu.calls[i];
    if (!reaching.count(c.calleeUsr)) {
      if (!dependent.count({c.file, c.rparen})) continue;
      c.sources.clear();
    }
    if (kept != i) tu.calls[kept] = std::move(c);
    ++kept;
  }
  tu.calls.resize(kept);
  kept = from.sites;
  for (size_t i = from.sites; i < tu.sites.size(); ++i) {
    if (!reaching.count(tu.sites[i].calleeUsr)) continue;
    if (kept != i) tu.sites[kept] = std::move(tu.sites[i]);
    ++kept;
  }
  tu.sites.resize(kept);
}

}  // namespace gridlock::frontend
