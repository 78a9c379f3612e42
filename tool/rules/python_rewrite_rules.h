// The `rewrite.python` key of rule packs (docs/rewrite.md, "Python"): read from a pack's JSON.
#pragma once

#include "rules/pack_reader.h"
#include "rules/rule_pack.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gridlock::rules {

PythonRewriteRule readPythonRewrite(const PackReader& r, const nlohmann::json& py);

// The key of rewrite.python.keyword_attributes for a call's written arguments (`a=1`,
// `b = True`): each `name=value` with its blanks squeezed, those named in `dropped` left out,
// sorted by name and joined by ", "; nothing when one is positional, `*`/`**`, or written twice.
std::optional<std::string> keywordKey(const std::vector<std::string>& arguments,
                                      const std::vector<std::string>& dropped);

}  // namespace gridlock::rules
