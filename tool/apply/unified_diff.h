// Unified diffs of rewritten files, as `patch -p1` and `git apply` read them.
#pragma once

#include "apply/edits.h"

#include <string>

namespace gridlock::apply {

// One file's diff (a/ and b/ prefixes, `file` relative to the root), 3 lines of context:
// common prefix and suffix trimmed, the middle aligned by longest common subsequence (or
// replaced whole when it is too large to align).
std::string fileDiff(const std::string& file, const std::string& before, const std::string& after);

// The diff of every change of `p`, file after file.
std::string unifiedDiff(const Prepared& p);

}  // namespace gridlock::apply
