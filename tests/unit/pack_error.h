// The error a rule pack's text gives when parsed as p.json, for tests of its messages.
#pragma once

#include "rules/rule_pack.h"

#include <string>

namespace gridlock::rules {

inline std::string errorOf(const std::string& text) {
  try {
    parseRulePack(text, "p.json");
  } catch (const RuleError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace gridlock::rules
