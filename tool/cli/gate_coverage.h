// What a gate must have seen before it may judge (docs/scan.md, "What the gate must see"):
// every C, C++ or CUDA file of the packs' scope that the run is about (the tree, the
// directories given, the files a diff touches) covered by the compile database (a unit's main
// file, or a file a unit includes), and, in a full run, some rule pack matching something.
// Otherwise a new file's reads, or every read, would pass unseen.
#pragma once

#include "cli/scan_options.h"

#include <string>
#include <vector>

namespace gridlock::cli {

// What to hold against the run's units.
struct CoverageQuery {
  std::vector<std::string> dirs;   // walked (absolute): the root of a full run, directories given
  std::vector<std::string> files;  // checked as they are (absolute): the files a diff touches
  // Directories not entered (absolute): the build directory and the cache. Neither is a
  // hidden directory nor a build tree (one holding CMakeCache.txt).
  std::vector<std::string> skip;
  // A full run whose root is `/`: the whole file system (system headers included) is no
  // project's tree, so it is not walked, and a warning says so.
  bool rootNotWalked = false;
};

// The query of a full run (gate without paths, merge --baseline): the tree under `root`.
CoverageQuery wholeTree(const std::string& root);

// The query of a gate run with these options (`root`: its real path): the files a diff
// touches (ScanOptions::filesFromDiff), else the directories among the positional paths, else
// the root; the build directories and the cache directory skipped.
CoverageQuery coverageQuery(const ScanOptions& o, const std::string& root);

// Whether the name ends as a C, C++ or CUDA source or header does (.c .cc .cpp .cxx .c++ .C
// .cu .cuh .h .hh .hpp .hxx .h++ .H .inl .ipp .tpp .tcc).
bool isCxxSource(const std::string& path);

// The root-relative names (sorted) of the query's C, C++ and CUDA files that some pack scans
// (its scope includes the file and neither excludes it nor makes it an edge) and that no unit
// of the run saw (index::Inventory::filesSeen: its main files and what they include).
std::vector<std::string> uncoveredFiles(const pipeline::ScanRun& run, const CoverageQuery& q);

// 0 when the gate may judge the run. Each uncovered file is an error (exit 2) naming it, or
// with `allowUncovered` a warning (0); a full run in which no pack matches anything is an
// error.
int coverageStatus(const pipeline::ScanRun& run, const CoverageQuery& q, bool allowUncovered);

// `--allow-uncovered` on `cmd` (gate, merge).
void addAllowUncoveredFlag(CLI::App& cmd, bool& allow);

}  // namespace gridlock::cli
