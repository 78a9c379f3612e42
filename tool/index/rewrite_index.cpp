#include "index/rewrite_index.h"

namespace gridlock::index {

void RewriteIndex::add(facts::TuFacts& tu) {
  for (auto& l : tu.paramLists)
    if (seenLists_.emplace(l.file, l.lparen, l.usr, l.definition).second)
      lists[l.usr].push_back(std::move(l));
  for (auto& c : tu.calls)
    if (seenCalls_.emplace(c.file, c.rparen, c.calleeUsr).second)
      calls[c.calleeUsr].push_back(std::move(c));
  addressTaken.insert(tu.addressTaken.begin(), tu.addressTaken.end());
  for (auto& d : tu.dependentCalls)
    if (seenDependent_.emplace(d.file, d.rparen, d.name).second)
      dependentCalls[d.name].push_back(std::move(d));
  for (auto& b : tu.classBodies) classBodies.emplace(b.usr, std::move(b));
  for (auto& b : tu.conditionals)
    if (seenConditionals_.emplace(b.file, b.begin).second)
      conditionals[b.file].push_back(std::move(b));
  std::set<std::string> files(tu.includes.begin(), tu.includes.end());
  files.insert(tu.mainFile);
  for (const auto& f : files) ++includers_[f];
  std::set<std::tuple<std::string, unsigned, std::string>> mine;
  for (const auto& s : tu.skipped)
    if (mine.emplace(s.file, s.offset, s.name).second) {
      auto& [units, line] = skips_[{s.file, s.offset, s.name}];
      ++units;
      line = s.line;
    }
}

void RewriteIndex::finish() {
  for (const auto& [key, skipped] : skips_) {
    const auto& [file, offset, name] = key;
    auto it = includers_.find(file);
    // A unit that lists no includes (or a file only skipped) counts as the file's only unit.
    size_t units = it == includers_.end() ? 0 : it->second;
    if (skipped.first >= units)
      skippedNames.emplace(name, file + ":" + std::to_string(skipped.second));
  }
  includers_.clear();
  skips_.clear();
}

}  // namespace gridlock::index
