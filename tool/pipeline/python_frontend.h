// The Python frontend of the pipeline (tool/python/python_scan.h): the .py files under the
// Python roots (default: where the packs' scope globs start), positional paths choosing the
// units, the facts cache beside the C++ one. A scan reads Python when its packs hold Python
// rules or .gridlock.json names Python roots (readsPython).
#pragma once

#include "pipeline/frontend.h"

namespace gridlock::pipeline {

// Whether a scan reads Python: its packs hold Python rules, or the request names Python roots.
// Without either, a scan is what it was before Python.
bool readsPython(const ScanRequest& request, const rules::RuleSet& rules);

class PythonFrontend : public Frontend {
 public:
  // `request` must outlive the frontend.
  explicit PythonFrontend(const ScanRequest& request) : request_(request) {}
  // Warns (once per process: rewrite scans again) of the Python rules that matched no
  // definition. Throws python::InputError: no .py file, a path that is not there.
  Units scan(const Scope& scope) override;

 private:
  const ScanRequest& request_;
};

}  // namespace gridlock::pipeline
