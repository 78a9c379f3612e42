// Where the running binary's shipped files are, found at run time from the binary's own
// location so that an installed prefix can be moved: <prefix>/bin/gridlock reads
// <prefix>/share/gridlock/. A binary still in the build tree it was built in (the tool and the
// tests) reads the source tree instead; no installed binary ever looks there.
#pragma once

#include <string>

namespace gridlock::support {

// The running executable's real path (/proc/self/exe); "" when it cannot be read.
std::string executablePath();

// <prefix>/share/gridlock for the running executable in <prefix>/bin (whether or not it
// exists); "" when the executable is unknown.
std::string installedDataDir();

// The source tree this binary was built from, when the binary lies in that build's tree;
// else "".
std::string sourceTreeOfThisBuild();

}  // namespace gridlock::support
