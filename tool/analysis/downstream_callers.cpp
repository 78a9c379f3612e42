#include "analysis/downstream_callers.h"

namespace gridlock::analysis {

std::string downstreamOf(const index::Inventory& inv, const std::string& file) {
  // A few checkouts: the one whose directory holds the file (the longest, should one lie in
  // another).
  const std::string* best = nullptr;
  size_t longest = 0;
  for (const auto& [dir, named] : inv.downstream)
    if (file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 &&
        file[dir.size()] == '/' && dir.size() >= longest) {
      best = &named;
      longest = dir.size();
    }
  return best ? *best : "";
}

void nameDownstream(const index::Inventory& inv, CallersResult& result) {
  if (inv.downstream.empty()) return;
  for (CallerSite& s : result.sites) s.downstream = downstreamOf(inv, s.file);
  for (Escape& e : result.escapes) e.downstream = downstreamOf(inv, e.file);
}

CallersResult everyCaller(const index::Inventory& inv, const std::string& function,
                          const std::string& param) {
  CallersResult r = callers(inv.program, function, param);
  nameDownstream(inv, r);
  return r;
}

}  // namespace gridlock::analysis
