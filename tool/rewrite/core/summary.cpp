#include "rewrite/core/summary.h"

#include <map>

namespace gridlock::rewrite {

using facts::Left;

std::string describeTally(facts::Strategy kind, const Plan& plan) {
  const Tally t = plan.tally(kind);
  const std::string reads = std::to_string(t.reads), places = std::to_string(t.places);
  switch (kind) {
    case facts::Strategy::Substitute:
      return reads + " substituted";
    case facts::Strategy::Require:
      return reads + " required";
    case facts::Strategy::Thread:
      return reads + " threaded (through " + places + " function(s)" +
             (t.hoisted
                  ? ", the edge declared once in " + std::to_string(t.hoisted) + " of its callers"
                  : "") +
             ")";
    case facts::Strategy::Store:
      return t.places == 0 ? "" : reads + " stored (in " + places + " class(es))";
    case facts::Strategy::Supply:
      return t.places == 0 ? "" : places + " call site(s) given the group they hold";
    case facts::Strategy::Collapse:
      return t.reads == 0 ? "" : reads + " collapsed (into " + places + " lookup(s))";
  }
  return "";
}

std::string Strategy::describe(const Plan& plan) const {
  std::optional<facts::Strategy> kind = counts();
  return kind ? describeTally(*kind, plan) : "";
}

std::string summaryLine(const Plan& plan, const index::Inventory& inv,
                        const std::vector<const Strategy*>& registered) {
  // A new kind of verdict takes its place here and its sentence in describeTally.
  static constexpr facts::Strategy kOrder[] = {
      facts::Strategy::Substitute, facts::Strategy::Require, facts::Strategy::Thread,
      facts::Strategy::Store,      facts::Strategy::Supply,  facts::Strategy::Collapse};
  std::string out;
  for (facts::Strategy kind : kOrder) {
    const Strategy* by = nullptr;
    for (const Strategy* s : registered)
      if (!by && s->counts() == kind) by = s;
    if (std::string part = by ? by->describe(plan) : describeTally(kind, plan); !part.empty())
      out += part + ", ";
  }
  std::map<Left, size_t> left;
  size_t total = 0;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Verdict& v = plan.verdicts[i];
    if (inv.reads[i].kind == facts::ReadKind::GlobalWrite || v.applied) continue;
    ++left[v.left];
    ++total;
  }
  out += std::to_string(total) + " left";
  // By reason, in the order of their spellings.
  std::map<std::string, size_t> byName;
  for (const auto& [fix, n] : left) byName[facts::str(fix)] = n;
  if (!byName.empty()) {
    out += " (";
    bool first = true;
    for (const auto& [name, n] : byName) {
      out += (first ? "" : ", ") + name + " " + std::to_string(n);
      first = false;
    }
    out += ")";
  }
  return out;
}

std::string summaryLine(const Plan& plan, const index::Inventory& inv, const Rewriters& all) {
  std::vector<const Strategy*> registered;
  for (const auto& backend : all)
    for (const auto& strategy : backend->strategies()) registered.push_back(strategy.get());
  return summaryLine(plan, inv, registered);
}

}  // namespace gridlock::rewrite
