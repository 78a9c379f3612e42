// Expected rewrites kept beside the input code, the way clang-tidy's tests keep CHECK-FIXES:
//
//   return total / ps::get_tensor_model_parallel_world_size();
//   // CHECK-FIXES: return total / this->pg_collection_->tp->size();
//
// A code line followed by CHECK-FIXES lines becomes those lines (one or more: an inserted
// #include or declaration is written as a second line), each indented like its comment plus
// any spaces after `CHECK-FIXES: ` (`// CHECK-FIXES:` alone is an empty line; where clang-format
// re-indents the comments of a statement it formats, the comment sits where it puts it and the text
// carries the rest). Every line without one stays as it is, annotations included. An #include the
// rewrite adds is written `// CHECK-INCLUDE: #include "x.h" AFTER #include "y.h"` (or BEFORE a
// line), anywhere in the file: a comment between includes would split their block and move the
// insertion. A read the rewrite leaves carries
// `// CHECK-LEFT: FIX [FIX...]` at the end of its line (one fix per read on the line, as
// `scan --plan` reports them after the rewrite); a read on a line the rewrite adds (a Collapse
// lookup) is named from a neighbour: `// CHECK-LEFT@+1: FIX`.
//
// Python files write them as `# CHECK-FIXES: ...` and `# CHECK-LEFT: ...`; there,
// `# CHECK-FIXES-DELETE` below a line says the rewrite removes it (an import it left unused).
#pragma once

#include <map>
#include <set>
#include <string>

namespace gridlock::test {

// The file the rewrite must produce from `input`. Throws std::runtime_error on a CHECK-FIXES
// line with no code line above it, or a CHECK-INCLUDE whose anchor is not exactly one line.
std::string expectedOutput(const std::string& input);

// Line -> the fixes of the reads left on it, from CHECK-LEFT annotations of `text`.
std::map<unsigned, std::multiset<std::string>> expectedLeft(const std::string& text);

}  // namespace gridlock::test
