// What a gate must have seen before it may judge (docs/scan.md, "What the gate must see"):
// every C, C++ or CUDA file of the packs' scope that the run is about (the tree, the
// directories given, the files a diff touches) covered by the compile database (a unit's main
// file, or a file a unit includes). Otherwise a new file's reads would pass unseen. Python
// files are not held against it: the Python frontend reads every module under its roots, with
// no database to leave one out.
#pragma once

#include "analysis/gate_policy.h"

#include <string>
#include <vector>

namespace gridlock::analysis {

// What to hold against the run's units. Every path absolute and real (symlinks resolved).
struct CoverageQuery {
  std::vector<std::string> dirs;   // walked: the root of a full run, directories given
  std::vector<std::string> files;  // checked as they are: the files a diff touches
  // Directories not entered: the build directories and the cache. The walk never enters a
  // hidden directory or a build tree (one holding CMakeCache.txt) either.
  std::vector<std::string> skip;
  // A full run whose root is `/`: the whole file system (system headers included) is no
  // project's tree, so it is not walked (the command warns).
  bool rootNotWalked = false;
};

// The query of a full run (gate without paths, merge --baseline): the tree under `root` (real).
CoverageQuery wholeTree(const std::string& root);

// The root-relative names (sorted) of the query's C, C++ and CUDA files (support::isCxxSource)
// that some pack holding C++ rules scans (its scope includes the file and neither excludes it
// nor makes it an edge; a pack of Python rules alone reads no C++ file) and that no unit of the
// run saw (index::Inventory::filesSeen: its main files and what
// they include). The walk does not follow symlinks; a directory it cannot read is
// support::WalkError (exit 2 naming it), never files left unnamed.
std::vector<std::string> uncoveredFiles(const GatedRun& run, const CoverageQuery& q);

// Whether some file of the tree under `root` (real; not `/`), read by a frontend or not (a
// README), matches the scope glob `glob`: walked from the glob's literal directories, as the
// coverage walk goes (no symlink, hidden directory or build tree).
bool anyTreeFileMatches(const std::string& root, const std::string& glob);

}  // namespace gridlock::analysis
