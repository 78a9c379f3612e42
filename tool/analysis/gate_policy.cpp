#include "analysis/gate_policy.h"

#include "support/confine.h"

#include <filesystem>

namespace gridlock::analysis {

Covers coverage(const GatedRun& run, std::set<std::string> deleted) {
  const index::Inventory* inv = &run.inventory;
  const rules::RuleSet* rules = &run.rules;
  return [inv, rules, root = run.root, subset = run.subset,
          deleted = std::move(deleted)](const BaselineKey& k) {
    if (inv->filesComplete.count(k.file))
      return !subset || rules->accessor(k.name) || rules->global(k.name);
    if (inv->filesSeen.count(k.file)) return false;
    if (subset && !deleted.count(k.file)) return false;
    std::string path = k.file.starts_with("/") ? k.file : root + "/" + k.file;
    std::error_code ec;
    return !std::filesystem::exists(path, ec);
  };
}

std::string keptBecause(const GatedRun& run, const BaselineKey& k) {
  if (run.inventory.filesComplete.count(k.file))
    return "laundered reads depend on the whole program: run gate without files";
  if (run.inventory.filesSeen.count(k.file)) return "its file failed to parse in this run";
  return run.subset ? "" : "not scanned by this run";
}

std::vector<std::string> packsMatchingNothing(const GatedRun& run) {
  if (run.subset) return {};
  return run.rules.nothingMatched(run.inventory.rulesSeen);
}

std::set<std::string> deletedUnderRoot(const std::vector<std::string>& deleted,
                                       const std::string& root) {
  std::set<std::string> out;
  std::string rel;
  for (const auto& f : deleted)
    if (support::relativeTo(root, f, rel)) out.insert(rel);
  return out;
}

}  // namespace gridlock::analysis
