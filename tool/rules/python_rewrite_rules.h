// The `rewrite.python` key of rule packs (docs/rewrite.md, "Python"): read from a pack's JSON.
#pragma once

#include "rules/pack_reader.h"
#include "rules/rule_pack.h"

#include <nlohmann/json.hpp>

namespace gridlock::rules {

PythonRewriteRule readPythonRewrite(const PackReader& r, const nlohmann::json& py);

}  // namespace gridlock::rules
