#include "analysis/summary.h"

namespace gridlock::analysis {

bool counts(const facts::Read& r) {
  return r.kind != "global_write" && !r.edge && !r.suppressed;
}

Summary summarize(const index::Inventory& inv) {
  Summary s;
  for (const char* k : {"accessor", "shim", "global_state", "laundered"}) s.byKind[k] = 0;
  s.filesScanned = inv.filesScanned;
  s.parseErrors = inv.parseErrors.size();
  s.badSuppressions = inv.badSuppressions.size();
  for (const auto& r : inv.reads) {
    if (r.kind == "global_write") {
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
    ++s.byGroup[!r.group.empty() ? r.group : r.kind == "shim" ? "(collection)" : "(state)"];
    ++s.byFile[r.file];
    ++s.byFix[r.fix];
    if (r.guard == "fallback") ++s.fallbacks;
  }
  return s;
}

}  // namespace gridlock::analysis
