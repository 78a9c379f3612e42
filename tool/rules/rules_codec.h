// Rule packs as data: every field of a loaded pack (its `extends` already folded in) to JSON and
// back, and the digest of a rule set that keys the facts cache. A shard's facts file carries
// its packs this way, so `gridlock merge` needs no rule files of its own.
#pragma once

#include "facts/struct_codec.h"
#include "rules/rule_set.h"

#include <nlohmann/json.hpp>

#include <string>

namespace gridlock::rules {

nlohmann::json toJson(const RulePack& pack);
// Throws codec::Error naming what is wrong.
RulePack rulePackFromJson(const nlohmann::json& j);

// The packs of a set, in order, as a JSON array; and the set they make.
nlohmann::json toJson(const RuleSet& rules);
RuleSet ruleSetFromJson(const nlohmann::json& j);

// MD5 of everything in the packs but the paths they were loaded from: two checkouts of one
// pack at different places scan alike.
std::string digestOf(const RuleSet& rules);

}  // namespace gridlock::rules
