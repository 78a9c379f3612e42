#include "pair/report.h"

#include <set>

namespace gridlock::pair::wording {

std::string verdict(const Comparison& c) { return exitCode(c) == 0 ? "PASS" : "FAIL"; }

std::string counts(const Comparison& c) {
  std::string s;
  for (Category k : listedCategories()) {
    int n = c.summary.at(k);
    if (n == 0) continue;
    s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(name(k));
  }
  return s.empty() ? "no changes" : s;
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
  static const std::vector<Category> order = {Category::NewFailure,   Category::Invalid,
                                              Category::Flaky,        Category::StillFailing,
                                              Category::Fixed,        Category::Added,
                                              Category::Removed};
  return order;
}

}  // namespace gridlock::pair::wording
