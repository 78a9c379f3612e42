// Where a class or function is handed on as a value the scan does not follow (Python:
// index::Program::values): what calls it from there is no site, so a list of sites that
// leaves these out may be short. `callers` names each place (docs/callers.md).
#pragma once

#include "index/program.h"

#include <set>
#include <string>
#include <vector>

namespace gridlock::analysis {

struct Escape {
  std::string file;
  unsigned line = 0, column = 0;
  std::string value;       // the class or function handed on, by name
  std::string how;         // "passed as an argument", "returned by pkg.f, whose result is ..."
  std::string downstream;  // the downstream checkout it is in, as named; "" in the tree
};

// Each place one of `usrs` (classes and functions) is handed on: named as a value and passed,
// stored or put in a display handed on; or returned by a function whose result is handed on,
// or which is handed on itself. Sorted by place, each once.
std::vector<Escape> escapesOf(const index::Program& program, const std::set<std::string>& usrs);

}  // namespace gridlock::analysis
