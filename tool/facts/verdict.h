// A rewrite plan's verdict on one read. Only tool/rewrite makes them; reports render them
// (`scan --plan`), which is why the type lives with the other plain facts.
#pragma once

#include "facts/kinds.h"

#include <optional>
#include <string>
#include <string_view>

namespace gridlock::facts {

struct Verdict {
  std::optional<Strategy> applied;  // the strategy whose edit removes the read
  Left left = Left::Unset;          // else why the read stays
  std::string detail;               // what was done, or why the read is left alone
};

// A suggested edit for one read (a substitution): what a SARIF `fix` offers code scanning.
struct SuggestedFix {
  std::string text;         // what replaces the read expression
  std::string description;  // "use this->pg_->tp", and what else its file gets
};

// The verdict as the reports' `fix` spells it (JSON, SARIF, the summary's by_fix): the
// strategy that removes the read, or why it stays. A laundered read Supply removes is spelled
// `substitute`: its call site now passes the group it holds in scope.
constexpr std::string_view spell(const Verdict& v) {
  if (!v.applied) return spell(v.left);
  return spell(*v.applied == Strategy::Supply ? Strategy::Substitute : *v.applied);
}

}  // namespace gridlock::facts
