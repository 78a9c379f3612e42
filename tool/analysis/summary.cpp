#include "analysis/summary.h"

namespace gridlock::analysis {

bool counts(const facts::Read& r) {
  return r.kind != facts::ReadKind::GlobalWrite && !r.edge && !r.suppressed;
}

bool countsWrite(const facts::Read& r) {
  return r.kind == facts::ReadKind::GlobalWrite && !r.edge && !r.suppressed;
}

Summary summarize(const index::Inventory& inv, const std::vector<facts::Verdict>* verdicts) {
  using facts::ReadKind;
  Summary s;
  for (ReadKind k :
       {ReadKind::Accessor, ReadKind::Shim, ReadKind::GlobalState, ReadKind::Laundered})
    s.byKind[k] = 0;
  s.filesScanned = inv.filesScanned;
  s.parseErrors = inv.parseErrors.size();
  s.badSuppressions = inv.badSuppressions.size();
  s.unusedSuppressions = inv.unusedAllows.size();
  s.cache = inv.cache;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    if (r.kind == ReadKind::GlobalWrite) {
      ++s.writes;
      continue;
    }
    if (r.edge) {
      ++s.edges;
      continue;
    }
    if (r.suppressed) {
      ++s.suppressed;
      continue;
    }
    ++s.total;
    ++s.byKind[r.kind];
    ++s.byGroup[!r.group.empty() ? r.group : r.kind == ReadKind::Shim ? "(collection)" : "(state)"];
    ++s.byFile[r.file];
    ++s.byFix[std::string(verdicts ? spell((*verdicts)[i]) : spell(r.hint.fix))];
    if (r.guard == facts::Guard::Fallback) ++s.fallbacks;
  }
  return s;
}

}  // namespace gridlock::analysis
