// The Python frontend's seam in the scan (runScan): the units of the .py files a scan reads,
// merged with the C++ units into one inventory. It is the one place tool/cli knows Python;
// a driver with pluggable frontends takes it over as a second frontend (docs/architecture.md).
#pragma once

#include "cli/scan_options.h"
#include "facts/by_file.h"
#include "index/inventory.h"

#include <functional>
#include <string>
#include <vector>

namespace gridlock::cli {

struct PythonInput {
  std::vector<facts::UnitFacts> units;
  index::CacheCounts cache;
  bool ran = false;  // whether the scan reads Python at all
};

// Whether a scan reads Python: its packs hold Python rules, or .gridlock.json names Python
// roots. Without either, a scan is what it was before Python.
bool readsPython(const ScanOptions& o, const rules::RuleSet& rules);

// The Python units of the scan: the .py files under the Python roots (default: where the
// packs' scope globs start) under `root`, positional paths selecting which become units, the
// facts cache beside the C++ one (default: .gridlock-cache in the build directory, else in
// the root). Warns of the Python rules that matched no definition. Throws
// python::InputError: no .py file, a path that is not there.
PythonInput scanPythonInput(
    const ScanOptions& o, const std::string& root, const rules::RuleSet& rules,
    const std::function<void(size_t, size_t, const facts::UnitFacts&)>& onUnitDone);

}  // namespace gridlock::cli
