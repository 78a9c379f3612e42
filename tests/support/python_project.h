// The smallest Python project a gate judges: a package `pkg` whose module `ps` defines the
// accessor `get_tp`, read once by `pkg.use.f`, and `py.json`, a pack of that one Python rule
// scoped to `pkg/**`. Tests add files to it.
#pragma once

#include <string>

namespace gridlock::test {

void writePythonProject(const std::string& dir);

// Gives pkg/use.py a second read, in `pkg.use.g` (line 9, `    return ps.get_tp()`): what a
// gate of the project's baseline finds new.
void addASecondRead(const std::string& dir);

}  // namespace gridlock::test
