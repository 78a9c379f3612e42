// pyright's `--outputjson` report, read into the diagnostics the comparison keeps.
#pragma once

#include "rewrite/python/checks/diagnostic.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

struct PyrightReport {
  std::string version;  // pyright's own, e.g. "1.1.414"
  int filesAnalyzed = 0;
  std::vector<Diagnostic> diagnostics;  // of the compared kinds only, in pyright's order
  int otherDiagnostics = 0;             // of every other rule (not compared)
};

// Reads `json` (pyright's stdout); file paths under `treeRoot` (absolute) become relative to
// it. Throws std::runtime_error naming what is missing or malformed.
PyrightReport parsePyrightJson(const std::string& json, const std::string& treeRoot);

}  // namespace gridlock::rewrite::py::checks
