// A rule pack's forward declaration (`thread.forward_declaration`), spelled as code.
#pragma once

#include <string>

namespace gridlock::rules {

// `class gridlock::ProcessGroupCollection` -> its lines (`namespace gridlock {`, `class
// ProcessGroupCollection;`, `}  // namespace gridlock`, each ending in a newline); "" when it
// is not `class` or `struct`, one space, and a qualified identifier.
std::string forwardDeclarationLines(const std::string& declaration);

}  // namespace gridlock::rules
