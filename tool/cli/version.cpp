#include "cli/version.h"

#include <clang/Basic/Version.h>

namespace gridlock::cli {

std::string versionLine() {
  // CLANG_VERSION_STRING is the version of the Clang headers (and so of libclang-cpp) this
  // binary was compiled against.
  return std::string("gridlock ") + GRIDLOCK_VERSION + " (built with Clang " +
         CLANG_VERSION_STRING + ")";
}

}  // namespace gridlock::cli
