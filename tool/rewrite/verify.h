// The C++ rewrite verified alone: the core's loop (rewrite/core/verify.h) with the C++ backend,
// whose check is the re-parse (rewrite/reparse_check.h).
#pragma once

#include "index/inventory.h"
#include "rewrite/core/verify.h"
#include "rules/rule_set.h"

#include <string>

namespace gridlock::rewrite {

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const Rescan& rescan);

}  // namespace gridlock::rewrite
