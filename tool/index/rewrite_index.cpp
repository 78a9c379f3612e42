#include "index/rewrite_index.h"

namespace gridlock::index {

void RewriteIndex::add(facts::TuFacts& tu) {
  for (auto& l : tu.paramLists)
    if (seenLists_.emplace(l.file, l.lparen).second) lists[l.usr].push_back(std::move(l));
  for (auto& c : tu.calls)
    if (seenCalls_.emplace(c.file, c.rparen, c.calleeUsr).second)
      calls[c.calleeUsr].push_back(std::move(c));
  addressTaken.insert(tu.addressTaken.begin(), tu.addressTaken.end());
  for (auto& d : tu.dependentCalls)
    if (seenDependent_.emplace(d.file, d.rparen, d.name).second)
      dependentCalls[d.name].push_back(std::move(d));
  skippedNames.insert(tu.skippedNames.begin(), tu.skippedNames.end());
}

}  // namespace gridlock::index
