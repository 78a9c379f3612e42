// Which call sites that leave a group out of a function with a fallback (or pass null for it,
// or leave out a default argument that reads a global) can be given the group they hold in
// scope, and the edits that give it. Require needs it to prove a fallback dead; the Supply
// strategy makes the edits and removes `laundered` reads with them.
#pragma once

#include "index/inventory.h"
#include "rewrite/cpp/plan.h"
#include "rules/rule_set.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::cpp {

// One site's argument for one parameter.
struct SiteSupply {
  bool ok = false;
  std::string site;     // "file:line:col"
  std::string text;     // what it passes (ok)
  bool edge = false;    // an edge file passing the global itself
  std::string include;  // the header that declares it, when the file may not have it
  std::string why;      // why it cannot (not ok)
};

// A guarded read's breaking sites, after supplying.
struct GuardSupply {
  bool allSupplied = false;
  size_t sites = 0;
  std::vector<std::string> failures;  // "file:line:col: why"
};

struct Supplies {
  std::map<std::pair<size_t, int>, SiteSupply> bySite;  // (Program::sites index, parameter)
  // Laundered reads by "file:line:col|function", as analysis/laundering names them.
  std::map<std::string, std::pair<size_t, int>> byLaundered;
  // Guarded reads by "file:offset".
  std::map<std::string, GuardSupply> byGuard;
  std::vector<Edit> edits;
  std::vector<Include> includes;
};

Supplies planSupplies(const index::Inventory& inv, const rules::RuleSet& rules,
                      const HeldFiles* held = nullptr);

// A default argument that means the same wherever it is written: a literal, nullptr, {}.
bool portableDefault(const std::string& text);

std::string guardKey(const facts::Read& r);
std::string launderedKey(const facts::Read& r);

}  // namespace gridlock::rewrite::cpp
