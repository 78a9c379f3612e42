// The gate's baseline file: read before any parsing (bad input fails fast), and checked
// against the root this run uses, which the baseline records relative to itself.
#pragma once

#include "analysis/baseline.h"

#include <optional>
#include <string>

namespace gridlock::cli {

struct GateBaseline {
  std::string path;
  bool exists = false;
  analysis::Baseline baseline;
  // It has "write_entries": its writes are gated. One made before writes were gated has
  // none; its writes are recorded by the next full `--update`.
  bool recordsWrites = true;
  std::optional<std::string> recordedRoot;  // "root" in the file, when it has one
  std::string root;                         // this run's root, relative to the file's directory
};

// This run's `root` (a real path) relative to the directory of the baseline at `path`
// ("." when it is that directory).
std::string rootRelativeToBaseline(const std::string& path, const std::string& root);

// Reads the baseline at `path` (when it exists) and checks that the root it records is this
// run's `root`; throws analysis::BaselineError on a bad file or a different root.
GateBaseline readGateBaseline(const std::string& path, const std::string& root);

}  // namespace gridlock::cli
