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

namespace {

// Keeps the elements of `v` from `from` on for which `keep` holds, in their order.
template <class T, class Keep>
void keepFrom(std::vector<T>& v, size_t from, Keep keep) {
  size_t kept = from;
  for (size_t i = from; i < v.size(); ++i) {
    if (!keep(v[i])) continue;
    if (kept != i) v[kept] = std::move(v[i]);
    ++kept;
  }
  v.resize(kept);
}

}  // namespace

void keepReachingDecls(facts::TuFacts& tu, FactsMark from, const std::set<std::string>& reaching,
                       const std::set<std::string>& named,
                       const std::set<std::string>& scannedClasses) {
  std::set<std::string> functions(reaching);
  functions.insert(named.begin(), named.end());
  for (const auto& c : tu.calls) functions.insert(c.callerUsr);
  for (const auto& s : tu.sites) functions.insert(s.callerUsr);
  keepFrom(tu.functions, from.functions,
           [&](const facts::FunctionFact& f) { return functions.count(f.usr) > 0; });
  keepFrom(tu.paramLists, from.paramLists,
           [&](const facts::ParamListFact& p) { return functions.count(p.usr) > 0; });

  std::set<std::string> classes(scannedClasses);
  for (const auto& f : tu.functions) classes.insert(f.classUsr);
  for (const auto& s : tu.sites) classes.insert(s.classUsr);
  // Down the hierarchy: a class whose base stays stays, until nothing changes.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& c : tu.classes)
      if (!classes.count(c.usr))
        for (const auto& b : c.bases)
          if (classes.count(b)) {
            classes.insert(c.usr);
            grew = true;
            break;
          }
  }
  keepFrom(tu.classes, from.classes,
           [&](const facts::ClassFact& c) { return classes.count(c.usr) > 0; });
  keepFrom(tu.classBodies, from.classBodies,
           [&](const facts::ClassBodyFact& b) { return classes.count(b.usr) > 0; });
}

}  // namespace gridlock::frontend
