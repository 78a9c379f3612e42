// From a Python plan's edits to files, as rewrite/edits.h does for C++ and into the same
// rewrite::Prepared (so --diff, --export-fixes and the journaled --apply share their code):
// each file checked against the scan's digest, its edits against each other, then the
// imports the edits left unused removed and the lines they made too long split
// (pyrewrite/imports.h, pyrewrite/wrap.h). No clang-format: it does not read Python.
#pragma once

#include "index/inventory.h"
#include "rewrite/edits.h"
#include "rewrite/plan.h"

#include <string>
#include <vector>

namespace gridlock::pyrewrite {

rewrite::Prepared prepare(const std::vector<rewrite::Edit>& edits, const index::Inventory& inv,
                          const std::string& root);

// The replacements that turn `before` into `after`, one per run of changed lines (for the
// YAML clang-apply-replacements reads).
clang::tooling::Replacements lineReplacements(const std::string& path, const std::string& before,
                                              const std::string& after);

}  // namespace gridlock::pyrewrite
