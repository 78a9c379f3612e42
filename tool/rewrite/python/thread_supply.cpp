#include "rewrite/python/thread_supply.h"

#include "rewrite/python/require.h"
#include "rewrite/python/supply.h"

#include <algorithm>
#include <set>

namespace gridlock::rewrite::py {
namespace {

// Whether edit `e` lands where one of `edits` does (an insertion at the same offset, or bytes
// both change): then the call was already given Thread's argument there, and the two would
// conflict.
bool clashes(const apply::Edit& e, const std::vector<apply::Edit>& edits, size_t count) {
  for (size_t k = 0; k < count; ++k) {
    const apply::Edit& o = edits[k];
    if (o.file != e.file) continue;
    if (o.offset == e.offset || (o.offset < e.offset + e.length && e.offset < o.offset + o.length))
      return true;
  }
  return false;
}

}  // namespace

void supplyThreaded(PyState& s, std::map<std::string, std::string>& supplied) {
  if (s.threaded.empty()) return;
  std::set<std::string> now;  // the calls supplied here
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (r.language != facts::Language::Python || r.kind != facts::ReadKind::Laundered || r.edge)
      continue;
    auto it = supplied.find(at(r));
    if (it == supplied.end() || it->second.empty() || !s.decided(i) ||
        s.decided(i)->left != facts::Left::OpenFallback)
      continue;
    // supplyCall finds the call's def, and the parameter Thread gave it (PyState::threaded).
    facts::Verdict before = *s.decided(i);
    const size_t edits = s.plan.edits.size();
    const rewrite::Tally tally = s.tally(facts::Strategy::Supply);
    s.reopen(i);
    std::string why = supplyCall(s, i);
    if (why.empty() && s.plan.edits.size() == edits + 1 &&
        !clashes(s.plan.edits.back(), s.plan.edits, edits)) {
      it->second = "";
      now.insert(at(r));
      continue;
    }
    s.plan.edits.resize(edits);
    s.tally(facts::Strategy::Supply) = tally;
    s.decide(i, before);
  }
  if (now.empty()) return;
  // A fallback left open for a call now supplied is decided again, so that a second run, which
  // sees that call pass the group, has nothing more to do.
  for (size_t j = 0; j < s.size(); ++j) {
    const facts::Read& r = s.read(j);
    if (r.language != facts::Language::Python || r.guard != facts::Guard::Fallback ||
        !s.decided(j) || s.decided(j)->left != facts::Left::OpenFallback)
      continue;
    const auto& sites = r.analysis.breakingSites;
    if (std::none_of(sites.begin(), sites.end(),
                     [&](const std::string& site) { return now.count(site) > 0; }))
      continue;
    s.reopen(j);
    requireArgument(s, j, supplied);
  }
}

}  // namespace gridlock::rewrite::py
