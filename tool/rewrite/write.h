// Writing a prepared rewrite into the user's tree.
#pragma once

#include "rewrite/edits.h"

namespace gridlock::rewrite {

// Writes every change: all files are written to temporaries first, then renamed; a failure
// restores what was already replaced and throws std::runtime_error.
void writeAll(const Prepared& p);

}  // namespace gridlock::rewrite
