#include "support/nearest.h"

#include <algorithm>

namespace gridlock::support {

size_t editDistance(const std::string& a, const std::string& b) {
  // d[i][j]: edits between the first i bytes of a and the first j of b.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t most = std::clamp<size_t>(word.size() / 3, 1, 3);
  std::string best;
  size_t bestDistance = most + 1;
  for (const auto& c : candidates) {
    size_t d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates,
                       char quote) {
  std::string near = nearest(word, candidates);
  return near.empty() ? "" : "; did you mean " + std::string(1, quote) + near + quote + "?";
}

}  // namespace gridlock::support
