// Finds and reads the result files one run left in a directory.
#pragma once

#include "pair/results.h"

#include <string>
#include <vector>

namespace gridlock::pair {

struct RankedPath {
  std::string source;  // the relative path without its rank marker
  int rank = 0;
};

// The rank conventions (docs/pair.md): a directory component `rankN` (rank3/attention.json) or
// a `.rankN` / `_rankN` / `-rankN` suffix before the extension (attention.rank3.json). A path
// without a marker is rank 0.
RankedPath splitRank(const std::string& relativePath);

// Every *.json (GoogleTest) and *.xml (JUnit) file under `dir`, recursively, sorted by path.
// Throws InputError if `dir` is not a directory or a file is unreadable or malformed.
RunResults readResultDir(const std::string& dir);

// A tree's results as stored by `pair` (or laid out by hand): `dir/run0` is the first run and
// `dir/run1`..`runN` the reruns; a directory without `run0` is a single first run.
TreeResults readTreeResults(const std::string& dir);

}  // namespace gridlock::pair
