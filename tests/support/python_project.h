// The smallest Python project a gate judges: a package `pkg` whose module `ps` defines the
// accessor `get_tp`, read once by `pkg.use.f`, and `py.json`, a pack of that one Python rule
// scoped to `pkg/**`. Tests add files to it.
#pragma once

#include <string>

namespace gridlock::test {

void writePythonProject(const std::string& dir);

}  // namespace gridlock::test
