#include "rewrite/cpp/supply.h"

namespace gridlock::rewrite::cpp {

using facts::Left;

void Supply::runOn(CppState& s) {
  const Supplies& supplies = s.supplies();
  s.plan.edits.insert(s.plan.edits.end(), supplies.edits.begin(), supplies.edits.end());
  for (const auto& i : supplies.includes) s.include(i);
  for (const auto& [key, site] : supplies.bySite)
    s.tally(facts::Strategy::Supply).places += site.ok;
  for (size_t i = 0; i < s.size(); ++i)
    if (s.open(i) && s.read(i).kind == facts::ReadKind::Laundered) laundered(s, i);
}

void Supply::laundered(CppState& s, size_t i) {
  const facts::Read& r = s.read(i);
  const Supplies& supplies = s.supplies();
  auto key = supplies.byLaundered.find(launderedKey(r));
  const SiteSupply* site =
      key == supplies.byLaundered.end() ? nullptr : &supplies.bySite.at(key->second);
  if (site && site->ok) {
    ++s.tally(facts::Strategy::Supply).reads;
    return s.apply(i, facts::Strategy::Supply,
                   "passes " + site->text + " instead of leaving the group to " + r.name);
  }
  if (s.noEnclosingFunction(i) || s.functionLimits(i)) return;
  std::string detail =
      "this call leaves the group out, so " + r.name + " reads " + r.analysis.launders;
  if (site) detail += "; cannot pass one here: " + site->why;
  s.leave(i, Left::OpenFallback, detail);
}

}  // namespace gridlock::rewrite::cpp
