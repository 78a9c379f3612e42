// An argument Thread inserts before a written one, in the call's own style: with an argument
// comment when the argument it goes before has one (`/*sequence_parallel=*/x` gets
// `/*env=*/env, ` before it), and on a line of its own when that argument starts its line (one
// argument per line stays one per line, which the project's clang-format then keeps).
#pragma once

#include "rewrite/cpp/plan.h"

#include <string>

namespace gridlock::rewrite::cpp {

// The text of `e` (an insertion whose `argument` names the parameter, `text` "value, ") styled
// for `source`, the file it goes into; `e.text` unchanged for any other edit.
std::string styledArgument(const std::string& source, const Edit& e);

}  // namespace gridlock::rewrite::cpp
