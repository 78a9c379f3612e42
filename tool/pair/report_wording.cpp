#include "pair/report.h"

#include "pair/command_end.h"

#include <set>

namespace gridlock::pair::wording {

std::string verdict(const Comparison& c) { return exitCode(c) == 0 ? "PASS" : "FAIL"; }

std::string counts(const Comparison& c) {
  std::string s;
  int failing = 0, shared = 0;
  for (const Incident& i : c.incidents) ++(i.shared ? shared : failing);
  auto plural = [](int n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  if (failing) s = plural(failing, "incident");
  if (shared) s += (s.empty() ? "" : ", ") + plural(shared, "shared incident");
  for (Category k : listedCategories()) {
    int n = c.summary.at(k);
    if (n == 0) continue;
    s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(name(k));
  }
  return s.empty() ? "no changes" : s;
}

std::string incidentLine(const Incident& incident, size_t listed) {
  std::string s = incident.tree + ", " +
                  (incident.run ? "rerun " + std::to_string(incident.run) : "first run") +
                  ": test command " + describe(incident.end) + "; ";
  const std::vector<std::string>& ids = incident.unreported;
  if (ids.empty()) {
    s += "every test reported";
  } else {
    s +=
        std::to_string(ids.size()) + (ids.size() == 1 ? " test" : " tests") + " had not reported: ";
    for (size_t i = 0; i < ids.size() && i < listed; ++i) s += (i ? ", " : "") + ids[i];
    if (ids.size() > listed) s += " and " + std::to_string(ids.size() - listed) + " more";
  }
  if (incident.shared) s += "; the other tree ended the same way";
  return s;
}

std::string changeCell(const TestRow& row) {
  std::string s(name(row.change));
  if (row.passedOnRerun > 0)
    s += ", pass on rerun " + std::to_string(row.passedOnRerun);
  else if (row.reruns > 0)
    s += ", " + std::to_string(row.reruns) + (row.reruns == 1 ? " rerun" : " reruns");
  return s;
}

std::string rankNote(bool identical, const std::vector<int>& failedRanks, int ranks, int runs) {
  if (ranks <= 1 || failedRanks.empty()) return "";
  if (identical) return " (identical on all ranks)";
  if (runs > 1) {
    std::set<int> distinct(failedRanks.begin(), failedRanks.end());
    std::string s = " (" + std::to_string(failedRanks.size()) + " of " + std::to_string(ranks) +
                    " rank results in " + std::to_string(runs) + " runs: rank" +
                    (distinct.size() == 1 ? " " : "s ");
    bool first = true;
    for (int r : distinct) {
      s += (first ? "" : ", ") + std::to_string(r);
      first = false;
    }
    return s + ")";
  }
  std::string s = failedRanks.size() == 1 ? " (rank " : " (ranks ";
  for (size_t i = 0; i < failedRanks.size(); ++i)
    s += (i ? ", " : "") + std::to_string(failedRanks[i]);
  return s + " of " + std::to_string(ranks) + ")";
}

const std::vector<Category>& listedCategories() {
  static const std::vector<Category> order = {
      Category::NewFailure, Category::Invalid, Category::Flaky,  Category::StillFailing,
      Category::Fixed,      Category::Added,   Category::Removed};
  return order;
}

}  // namespace gridlock::pair::wording
