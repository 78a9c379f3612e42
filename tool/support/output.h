// Where a command's output goes: a file given by -o, --facts-out or --export-fixes, written
// atomically (support/atomic_write.h), or stdout.
#pragma once

#include <string>

namespace gridlock::support {

// Writes `text` to `path` (writeFileAtomic), or to stdout when path is empty or "-".
void writeOutput(const std::string& path, const std::string& text);

}  // namespace gridlock::support
