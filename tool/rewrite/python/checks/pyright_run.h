// One run of pyright over a tree, read into its report.
#pragma once

#include "rewrite/python/checks/pyright_json.h"
#include "rewrite/python/checks/tools.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

struct PyrightRun {
  bool ok = false;
  std::string error;  // when !ok: why pyright gave no report
  PyrightReport report;
};

// Runs `tools.pyright --outputjson --pythonpath PYTHON [PATH...]` in `treeDir`: the paths
// (relative to it; none: the whole tree, as the tree's own pyright configuration says) are
// what pyright checks, the rest of the tree is what their imports resolve in. A run that ends
// other than with pyright's 0 (no errors) or 1 (errors), that runs past `timeoutSeconds` (0:
// no limit; its process group is stopped), whose report is not pyright's JSON, or that checks
// no file, is not ok; the error names pyright. support::runProgram runs it in a group of its
// own: what it leaves running is stopped, and a signal to gridlock stops it
// (support::Interrupted).
PyrightRun runPyright(const Tools& tools, const std::string& treeDir,
                      const std::vector<std::string>& paths, int timeoutSeconds);

}  // namespace gridlock::rewrite::py::checks
