// `gridlock --version`: the tool's version and which build it is (the Clang the full build was
// built with, or the Python build's words: pipeline::buildDescription).
#pragma once

#include <string>

namespace gridlock::cli {

// "gridlock 0.1.0 (built with Clang 19.1.7)", "gridlock 0.1.0 (Python build: no C++ frontend)"
std::string versionLine();

}  // namespace gridlock::cli
