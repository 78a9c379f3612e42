// `gridlock --version`: the tool's version and the Clang it was built with.
#pragma once

#include <string>

namespace gridlock::cli {

// "gridlock 0.1.0 (built with Clang 19.1.7)"
std::string versionLine();

}  // namespace gridlock::cli
