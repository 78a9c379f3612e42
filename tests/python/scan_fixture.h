// A Python fixture scanned the way the binary scans it: every .py file under a root, the
// module index, the reads of a rule pack and laundering, merged into one inventory.
#pragma once

#include "index/inventory.h"
#include "rules/rule_set.h"

#include <string>

namespace gridlock::test {

struct PythonRun {
  rules::RuleSet rules;
  index::Inventory inventory;
};

// `root` scanned with the pack at `pack` (a path).
PythonRun scanPythonFixture(const std::string& root, const std::string& pack);

}  // namespace gridlock::test
