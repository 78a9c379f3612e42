// What the gate says of what it cannot see, before it judges (docs/scan.md, "What the gate
// must see"): the files of the packs' scope that no unit covers (analysis/uncovered_files.h)
// and packs matching nothing (analysis::packsMatchingNothing), each named on stderr, and the
// exit status that follows; `--allow-uncovered`, which makes the files warnings.
#pragma once

#include "analysis/uncovered_files.h"
#include "cli/scan_options.h"

#include <string>

namespace gridlock::cli {

// The query of a gate run with these options (`root`: its real path): the files a diff
// touches (ScanOptions::filesFromDiff), else the directories among the positional paths, else
// the whole tree (analysis::wholeTree); the build directories and the cache directory skipped.
analysis::CoverageQuery coverageQuery(const ScanOptions& o, const std::string& root);

// 0 when the gate may judge the run. Each uncovered file is an error (exit 2) naming it, or
// with `allowUncovered` a warning (0); a full run in which no pack matches anything is an
// error; a root of `/`, not walked, a warning.
int coverageStatus(const pipeline::ScanRun& run, const analysis::CoverageQuery& q,
                   bool allowUncovered);

// `--allow-uncovered` on `cmd` (gate, merge).
void addAllowUncoveredFlag(CLI::App& cmd, bool& allow);

}  // namespace gridlock::cli
