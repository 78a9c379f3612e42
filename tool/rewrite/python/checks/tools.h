// Where the programs the verification runs are: the Python interpreter (py_compile, and the
// environment pyright resolves imports in) and pyright (on Node.js).
#pragma once

#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

struct Tools {
  // /usr/bin/python3 (Debian's, where python3-torch is installed), else the first python3 on
  // PATH; empty when neither runs.
  std::string python;
  // The command that runs pyright: {node, .../index.js} or {.../pyright}; empty when none was
  // found, and then `pyrightMissing` says where gridlock looked.
  std::vector<std::string> pyright;
  std::string pyrightMissing;
};

// `pyrightPath` (from a command-line option) or else $GRIDLOCK_PYRIGHT: pyright's index.js
// (run with node) or an executable; or, for a binary in its build tree, the pinned copy that
// scripts/setup.sh unpacks into the source tree's .deps/; or `pyright` on PATH. A path given
// that does not exist is missing, not passed over for another.
Tools findTools(const std::string& pyrightPath = "");

}  // namespace gridlock::rewrite::py::checks
