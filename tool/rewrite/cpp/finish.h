// A C++ plan made into files: the apply library (apply/edits.h) reads, checks and dedupes
// the edits of each file; this adds the C++ step, completing them with the #includes and
// forward declarations they need and formatting the changed lines the project's way, as clang
// Replacements made back into apply's. Diffs, exports and writes are apply's (apply/).
#pragma once

#include "apply/edits.h"
#include "rewrite/cpp/cpp_state.h"

#include <string>

namespace gridlock::rewrite::cpp {

// Reads every file the plan edits from `root`, refuses files whose MD5 differs from the
// scan's digest, reports overlapping edits (identical edits count once), and builds the new
// contents. Formats changed lines when a .clang-format applies to the file.
apply::Prepared prepare(const CppState& planned, const std::string& root);

}  // namespace gridlock::rewrite::cpp
