// The Python frontend of the pipeline (tool/python/python_scan.h): the .py files under the
// Python roots (default: where the packs' scope globs start), positional paths choosing the
// units, the facts cache beside the C++ one. A scan reads Python when its packs hold Python
// rules or .gridlock.json names Python roots (readsPython).
#pragma once

#include "pipeline/frontend.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace gridlock::pipeline {

// Whether a scan reads Python: its packs hold Python rules, or the request names Python roots.
// Without either, a scan is what it was before Python.
bool readsPython(const ScanRequest& request, const rules::RuleSet& rules);

// Warns of the Python rules that matched no definition (python_scan.h's warnings), each once
// per process: a scan warns, a shard does not (another may match them), `merge` does.
void warnUnmatchedPython(const std::vector<std::string>& warnings);
// The same for merged shards: `units` every unit of the scan (its Python modules end in .py),
// `seen` the rules their facts saw.
void warnUnmatchedPython(const rules::RuleSet& rules, const std::set<std::string>& seen,
                         const std::vector<std::string>& units);

class PythonFrontend : public Frontend {
 public:
  // `request` must outlive the frontend.
  explicit PythonFrontend(const ScanRequest& request) : request_(request) {}
  // Warns of the Python rules that matched no definition (not with --facts-out). With
  // --facts-out, the units of its shard. Throws python::InputError: no .py file, a path that
  // is not there.
  Units scan(const Scope& scope) override;

 private:
  const ScanRequest& request_;
};

}  // namespace gridlock::pipeline
