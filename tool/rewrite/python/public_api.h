// Public API in Python (docs/rewrite.md, "Python"): the pack's `rewrite.python.thread.public`
// names module globs whose module-level functions without a leading underscore are called from
// outside the tree. Thread refuses them, or (`thread.public_api: "keyword"`) gives them the group
// as a keyword defaulting to None; Require never makes their parameter required.
#pragma once

#include "rewrite/python/python_source.h"
#include "rules/rule_pack.h"

#include <string>

namespace gridlock::rewrite::py {

// The glob of `rule.thread.public` that makes `def` of `file` public API, or "" when `def` is
// not public (a method, a name with a leading underscore, a module no glob names).
std::string publicGlob(const rules::PythonRewriteRule& rule, const std::string& file,
                       const PySource& src, TSNode def);

}  // namespace gridlock::rewrite::py
