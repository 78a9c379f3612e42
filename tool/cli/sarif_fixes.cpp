#include "cli/sarif_fixes.h"

namespace gridlock::cli {

std::map<size_t, report::SarifFix> substitutionFixes(const index::Inventory& inv,
                                                     const rewrite::Plan& plan) {
  std::map<size_t, report::SarifFix> out;
  for (size_t i = 0; i < inv.reads.size() && i < plan.verdicts.size(); ++i) {
    const facts::Verdict& v = plan.verdicts[i];
    if (v.applied != facts::Strategy::Substitute) continue;
    const facts::Read& r = inv.reads[i];
    for (const auto& e : plan.edits) {
      if (e.file != r.file || e.offset != r.offset || e.length != r.length ||
          e.strategy != facts::Strategy::Substitute)
        continue;
      std::string description = "use " + e.text;
      if (auto note = plan.fixNotes.find(r.file); note != plan.fixNotes.end())
        description += " (and " + note->second + ")";
      out[i] = {e.text, description};
      break;
    }
  }
  return out;
}

}  // namespace gridlock::cli
