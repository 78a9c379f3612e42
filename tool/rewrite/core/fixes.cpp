#include "rewrite/core/fixes.h"

namespace gridlock::rewrite {

std::map<size_t, facts::SuggestedFix> suggestedFixes(const index::Inventory& inv,
                                                     const Plan& plan) {
  std::map<size_t, facts::SuggestedFix> out;
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

}  // namespace gridlock::rewrite
