#include "index/inventory.h"

#include "facts/by_file.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_set>

namespace gridlock::index {

void sortReads(std::vector<facts::Read>& reads) {
  std::sort(reads.begin(), reads.end(), [](const auto& a, const auto& b) {
    return std::tie(a.file, a.line, a.column, a.name, a.spelling) <
           std::tie(b.file, b.line, b.column, b.name, b.spelling);
  });
}

Inventory merge(std::vector<facts::TuFacts> tus, bool rewriteFacts) {
  std::vector<facts::UnitFacts> units(tus.size());
  for (size_t i = 0; i < tus.size(); ++i) units[i].tu = std::move(tus[i]);
  return merge(std::move(units), rewriteFacts);
}

namespace {

// The files a unit saw: its main file and the files under the root it includes.
std::set<std::string> filesOf(const facts::TuFacts& tu) {
  std::set<std::string> files(tu.includes.begin(), tu.includes.end());
  files.insert(tu.mainFile);
  return files;
}

// Merges `units` (the run's) and then `context` (the rest of a subset run's tree).
Inventory mergeAll(std::vector<facts::UnitFacts> units, std::vector<facts::UnitFacts> context,
                   std::vector<facts::UnitFacts> seenOnly, bool subset, bool rewriteFacts) {
  Inventory inv;
  inv.filesScanned = units.size();
  inv.subset = subset;
  inv.rewrite.collected = rewriteFacts;
  for (const auto& unit : units) {
    std::set<std::string> files = filesOf(unit.tu);
    inv.filesSeen.insert(files.begin(), files.end());
  }
  // A read is the run's when its file is: a header both a selected unit and a context unit
  // include is the run's, whichever unit's copy is merged.
  auto theRuns = [&](const std::string& file) { return !subset || inv.filesSeen.count(file); };
  // A read's identity is where it is reported and where it is spelled: a header's read seen
  // by many TUs, or a template's by many instantiations, is one read.
  using Key = std::tuple<std::string, unsigned, unsigned, std::string, std::string>;
  std::set<Key> seen;
  std::set<std::pair<std::string, unsigned>> badSeen;
  // Each allow once, by where it is; covered when some unit's read falls under it.
  std::map<std::tuple<std::string, unsigned, unsigned>, facts::AllowFact> allows;
  // A file's facts that an earlier unit shared (the same digest) were merged with it: merging
  // them again would change nothing (every step below keeps the first of equal facts, and
  // a later copy adds nothing to a merged function), so they are left out.
  std::unordered_set<std::string> mergedFiles;
  size_t sites = 0;
  for (const auto* list : {&units, &context, &seenOnly})
    for (const auto& unit : *list) sites += unit.tu.sites.size();
  inv.program.reserveSites(sites);
  const size_t selected = units.size();
  for (auto& c : context) units.push_back(std::move(c));
  for (size_t u = 0; u < units.size(); ++u) {
    facts::UnitFacts& unit = units[u];
    const bool inContext = u >= selected;
    facts::TuFacts& tu = unit.tu;
    if (unit.byFile) {
      const facts::ByFile& byFile = *unit.byFile;
      facts::joinByFile(tu, byFile, [&](size_t g) {
        return !byFile.files[g].digest.empty() && mergedFiles.count(byFile.files[g].digest);
      });
      for (const auto& f : byFile.files)
        if (!f.digest.empty()) mergedFiles.insert(f.digest);
      unit.byFile.reset();
    }
    for (auto& r : tu.reads) {
      // A context file's fallback still launders its reads into the run's calls.
      bool mine = theRuns(r.file);
      if ((mine || r.guardParam >= 0) &&
          seen.emplace(r.file, r.line, r.column, r.name, r.spelling).second)
        (mine ? inv.reads : inv.exemptReads).push_back(std::move(r));
    }
    for (auto& b : tu.badSuppressions)
      if (theRuns(b.file) && badSeen.emplace(b.file, b.line).second)
        inv.badSuppressions.push_back(std::move(b));
    for (auto& a : tu.allows) {
      if (!theRuns(a.file)) continue;  // a context file's allows are not this run's to judge
      auto [it, fresh] = allows.try_emplace({a.file, a.line, a.column}, a);
      it->second.covers = it->second.covers || a.covers;
      it->second.mainFile = it->second.mainFile || a.mainFile;
    }
    inv.digests.insert(tu.digests.begin(), tu.digests.end());
    for (auto& r : tu.exemptReads)
      if (seen.emplace(r.file, r.line, r.column, r.name, r.spelling).second)
        inv.exemptReads.push_back(std::move(r));
    std::set<std::string> files = filesOf(tu);
    inv.programFiles.insert(files.begin(), files.end());
    inv.rulesSeen.insert(tu.rulesSeen.begin(), tu.rulesSeen.end());
    if (!inContext) {
      if (tu.parseError && tu.parseError->files.empty()) files.clear();  // the compiler never ran
      if (tu.parseError)
        for (const auto& f : tu.parseError->files) files.erase(f);
      inv.filesComplete.insert(files.begin(), files.end());
      if (!tu.notes.empty()) inv.notes[tu.mainFile] = std::move(tu.notes);
    }
    // A context unit that does not parse is an error as a selected one is: what its broken
    // part calls or launders is missing from the program the run decides on.
    if (tu.parseError) inv.parseErrors.push_back(std::move(*tu.parseError));
    inv.program.add(std::move(tu.functions), std::move(tu.classes), std::move(tu.sites));
    inv.program.addValues(std::move(tu.values));
    if (rewriteFacts) inv.rewrite.add(tu);
  }
  for (auto& [at, a] : allows)
    if (!a.covers) inv.unusedAllows.push_back(std::move(a));
  // Seen only: the program's facts, never the run's reads, files (programFiles: what the
  // rewriter may open) or rewrite facts.
  for (auto& unit : seenOnly) {
    facts::TuFacts& tu = unit.tu;
    inv.program.add(std::move(tu.functions), std::move(tu.classes), std::move(tu.sites));
    inv.program.addValues(std::move(tu.values));
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

}  // namespace

Inventory merge(std::vector<facts::UnitFacts> units, bool rewriteFacts) {
  return mergeAll(std::move(units), {}, {}, false, rewriteFacts);
}

Inventory merge(std::vector<facts::UnitFacts> units, std::vector<facts::UnitFacts> seen,
                bool rewriteFacts) {
  return mergeAll(std::move(units), {}, std::move(seen), false, rewriteFacts);
}

Inventory mergeSubset(std::vector<facts::UnitFacts> units, std::vector<facts::UnitFacts> context,
                      bool rewriteFacts, std::vector<facts::UnitFacts> seen) {
  return mergeAll(std::move(units), std::move(context), std::move(seen), true, rewriteFacts);
}

}  // namespace gridlock::index
