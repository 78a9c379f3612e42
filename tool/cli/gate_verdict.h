// The gate's verdict on a scan against its baseline, shared by `gridlock gate` and
// `gridlock merge --baseline` (which must give the same bytes and exit status).
#pragma once

#include "analysis/baseline.h"
#include "cli/scan_options.h"

#include <optional>
#include <string>

namespace gridlock::cli {

struct GateBaseline {
  std::string path;
  bool exists = false;
  analysis::Baseline baseline;
};

// Reads the baseline at `path`; throws on a bad one. Nothing, with `status` 2 and the error
// printed, when there is none and `update` does not create it, or when it would be created
// from a run over some files only (`subset`).
std::optional<GateBaseline> readGateBaseline(const std::string& path, bool update, bool subset,
                                             int& status);

// Prints the verdict and returns the exit status (0 passed, 1 rose, 2 a baseline to create from
// a run over some files only); writes the baseline when it is created or `update` shrinks it.
int gateVerdict(const ScanRun& run, const GateBaseline& b, bool update);

}  // namespace gridlock::cli
