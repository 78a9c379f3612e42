#include "cli/version.h"

#include "pipeline/frontend.h"

namespace gridlock::cli {

std::string versionLine() {
  return std::string("gridlock ") + GRIDLOCK_VERSION + " (" + pipeline::buildDescription() + ")";
}

}  // namespace gridlock::cli
