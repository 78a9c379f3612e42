// A rewrite plan's verdict on one read. Only tool/rewrite makes them; reports render them
// (`scan --plan`), which is why the type lives with the other plain facts.
#pragma once

#include "facts/kinds.h"

#include <string>

namespace gridlock::facts {

struct Verdict {
  Fix fix = Fix::Unset;  // the edit that removes the read, or the reason it stays
  std::string detail;    // what was done, or why the read is left alone
  bool applied = false;  // an edit of the plan removes the read
};

}  // namespace gridlock::facts
