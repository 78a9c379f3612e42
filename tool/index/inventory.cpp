#include "index/inventory.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace gridlock::index {

void sortReads(std::vector<facts::Read>& reads) {
  std::sort(reads.begin(), reads.end(), [](const auto& a, const auto& b) {
    return std::tie(a.file, a.line, a.column, a.name, a.spelling) <
           std::tie(b.file, b.line, b.column, b.name, b.spelling);
  });
}

Inventory merge(std::vector<facts::TuFacts> tus, bool rewriteFacts) {
  Inventory inv;
  inv.filesScanned = tus.size();
  inv.rewrite.collected = rewriteFacts;
  // A read's identity is where it is reported and where it is spelled: a header's read seen
  // by many TUs, or a template's by many instantiations, is one read.
  using Key = std::tuple<std::string, unsigned, unsigned, std::string, std::string>;
  std::set<Key> seen;
  std::set<std::pair<std::string, unsigned>> badSeen;
  for (auto& tu : tus) {
    for (auto& r : tu.reads)
      if (seen.emplace(r.file, r.line, r.column, r.name, r.spelling).second)
        inv.reads.push_back(std::move(r));
    for (auto& b : tu.badSuppressions)
      if (badSeen.emplace(b.file, b.line).second) inv.badSuppressions.push_back(std::move(b));
    inv.digests.insert(tu.digests.begin(), tu.digests.end());
    for (auto& r : tu.exemptReads)
      if (seen.emplace(r.file, r.line, r.column, r.name, r.spelling).second)
        inv.exemptReads.push_back(std::move(r));
    std::set<std::string> files(tu.includes.begin(), tu.includes.end());
    files.insert(tu.mainFile);
    inv.filesSeen.insert(files.begin(), files.end());
    if (tu.parseError && tu.parseError->files.empty()) files.clear();  // the compiler never ran
    if (tu.parseError)
      for (const auto& f : tu.parseError->files) files.erase(f);
    inv.filesComplete.insert(files.begin(), files.end());
    inv.rulesSeen.insert(tu.rulesSeen.begin(), tu.rulesSeen.end());
    if (tu.parseError) inv.parseErrors.push_back(std::move(*tu.parseError));
    if (!tu.notes.empty()) inv.notes[tu.mainFile] = std::move(tu.notes);
    inv.program.add(std::move(tu.functions), std::move(tu.classes), std::move(tu.sites));
    if (rewriteFacts) inv.rewrite.add(tu);
  }
  inv.program.finish();
  if (rewriteFacts) inv.rewrite.finish();
  sortReads(inv.reads);
  std::sort(inv.parseErrors.begin(), inv.parseErrors.end(),
            [](const auto& a, const auto& b) { return a.file < b.file; });
  std::sort(inv.badSuppressions.begin(), inv.badSuppressions.end(),
            [](const auto& a, const auto& b) {
              return std::tie(a.file, a.line) < std::tie(b.file, b.line);
            });
  return inv;
}

}  // namespace gridlock::index
