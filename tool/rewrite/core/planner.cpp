#include "rewrite/core/planner.h"

#include "rewrite/core/triage.h"

#include <stdexcept>

namespace gridlock::rewrite {

std::unique_ptr<PlanState> planWith(Rewriter& backend, const PlanInputs& in) {
  std::unique_ptr<PlanState> s = backend.start(in);
  triage(backend, *s);
  for (const auto& strategy : backend.strategies()) strategy->run(*s);
  for (size_t i = 0; i < s->size(); ++i)
    if (s->open(i)) {
      const facts::Read& r = s->read(i);
      throw std::logic_error("internal: no rewrite strategy decided on the read at " +
                             facts::where(r.file, r.line, r.column));
    }
  return s;
}

bool ownsAny(const Rewriter& backend, const index::Inventory& inv) {
  for (const auto& r : inv.reads)
    if (backend.owns(r)) return true;
  return false;
}

void checkOwned(const index::Inventory& inv, const Rewriters& backends) {
  for (const auto& r : inv.reads) {
    bool owned = false;
    for (const auto& backend : backends) owned = owned || backend->owns(r);
    if (!owned)
      throw std::logic_error("internal: no rewrite backend owns the read at " +
                             facts::where(r.file, r.line, r.column));
  }
}

void mergePlan(const Rewriter& by, const index::Inventory& inv, Plan from, Plan& into) {
  if (into.verdicts.size() < inv.reads.size()) into.verdicts.resize(inv.reads.size());
  for (size_t i = 0; i < inv.reads.size() && i < from.verdicts.size(); ++i)
    if (by.owns(inv.reads[i])) into.verdicts[i] = std::move(from.verdicts[i]);
  into.edits.insert(into.edits.end(), std::make_move_iterator(from.edits.begin()),
                    std::make_move_iterator(from.edits.end()));
  for (const auto& [kind, t] : from.tallies) {
    Tally& sum = into.tallies[kind];
    sum.reads += t.reads;
    sum.places += t.places;
    sum.hoisted += t.hoisted;
  }
  into.signatures.insert(from.signatures.begin(), from.signatures.end());
  into.fixNotes.insert(from.fixNotes.begin(), from.fixNotes.end());
}

Plan planReads(const index::Inventory& inv, const rules::RuleSet& rules, const std::string& root,
               Rewriters& backends, std::optional<facts::Language> only) {
  static const HeldFiles none;
  static const std::map<std::string, std::string> unchanged;
  checkOwned(inv, backends);
  Plan out;
  out.verdicts.resize(inv.reads.size());
  for (auto& backend : backends) {
    if ((only && backend->language() != *only) || !ownsAny(*backend, inv)) continue;
    std::unique_ptr<PlanState> planned = planWith(*backend, {inv, rules, root, none, unchanged});
    mergePlan(*backend, inv, std::move(planned->plan), out);
  }
  return out;
}

}  // namespace gridlock::rewrite
