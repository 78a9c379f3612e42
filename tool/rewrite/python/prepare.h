// From a Python plan's edits to files, through apply::prepare (each file checked against the
// scan's digest, its edits against each other) with Python's own last step: the imports the
// edits left unused removed and the lines they made too long split (rewrite/python/imports.h,
// rewrite/python/wrap.h). --diff, --export-fixes and the journaled --apply then share apply's code.
#pragma once

#include "apply/edits.h"
#include "index/inventory.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py {

apply::Prepared prepare(const std::vector<apply::Edit>& edits, const index::Inventory& inv,
                        const std::string& root);

// The replacements that turn `before` into `after`, one per run of changed lines.
std::vector<apply::Replacement> lineReplacements(const std::string& before,
                                                 const std::string& after);

}  // namespace gridlock::rewrite::py
