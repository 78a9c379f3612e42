#include "support/output.h"

#include "support/atomic_write.h"

#include <iostream>

namespace gridlock::support {

void writeOutput(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text << std::flush;
    return;
  }
  writeFileAtomic(path, text);
}

}  // namespace gridlock::support
