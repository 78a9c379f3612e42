// Imports a rewrite leaves unused (docs/rewrite.md, "Python"): a module-level import whose
// name the edits removed the last use of, when that is provable from the file alone.
#pragma once

#include "apply/edits.h"
#include "rewrite/python/python_source.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// Edits of `before` that remove the names of module-level imports that `before` uses and
// `after` (the same file with the rewrite's edits) does not: the name in a `from m import a, b`
// list, or the whole statement (and a blank line, where it leaves three in a row). Nothing in
// an `__init__.py` (its imports are its interface), nor in a file that reaches its own
// namespace by name (`globals()`, `locals()`, `vars()`, `eval`, `exec`), nor a name any
// string of the file spells (`__all__`, `getattr(m, "name")`).
std::vector<apply::Edit> unusedImports(const std::string& file, const PySource& before,
                                       const PySource& after);

}  // namespace gridlock::rewrite::py
