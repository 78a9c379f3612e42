// The Python keys of rule packs (docs/scan.md "Python"): reading them from a pack's JSON, and
// matching a resolved dotted name against a family of accessors.
#pragma once

#include "rules/pack_reader.h"
#include "rules/rule_pack.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>

namespace gridlock::rules {

// Whether an `accessors` or `globals` entry is a Python one: it has one of `keys`.
bool isPythonRule(const nlohmann::json& entry, std::initializer_list<const char*> keys);

PythonAccessorRule readPythonAccessor(const PackReader& r, const nlohmann::json& a,
                                      const std::string& at);
PythonGlobalRule readPythonGlobal(const PackReader& r, const nlohmann::json& g,
                                  const std::string& at);
PythonCounting readPythonCounting(const PackReader& r, const nlohmann::json& p);

// How a Python rule is named in errors, duplicate checks and facts::TuFacts::rulesSeen:
// "python NAME", "python_family MODULE.PREFIX*", "python_module MODULE".
std::string pythonRuleName(const PythonAccessorRule& rule);
std::string pythonRuleName(const PythonGlobalRule& rule);

// How a setter rule is named in errors, duplicate checks and facts::TuFacts::rulesSeen:
// "setter function Q", "setter python NAME".
std::string setterRuleName(const SetterRule& rule);

// The dotted Python name at `key` (required), or an error naming it.
std::string readPythonName(const PackReader& r, const nlohmann::json& j, const std::string& key,
                           const std::string& at);

// A dotted Python name: identifiers joined by dots.
bool isDottedName(const std::string& name);

// What a family says of the function `dotted` (module and name): its group and what it
// yields, or nothing when the family does not cover it.
struct FamilyMember {
  std::string group;
  facts::Yields yields = facts::Yields::Group;
};
std::optional<FamilyMember> familyMember(const PythonAccessorRule& rule, const std::string& dotted);

}  // namespace gridlock::rules
