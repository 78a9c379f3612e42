// Asks a Python interpreter about many sources in one process, nothing of them run: what
// CPython itself says of a file (whether it parses, whether it compiles).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gridlock::support {

struct PythonAnswers {
  bool ran = false;  // false: no answer (then `error` says why)
  std::string error;
  std::vector<nlohmann::json> answers;  // one per source, in order
};

// Runs `python -I -S` with `check`, Python source that defines `check(source)` (the source's
// bytes) returning a value json.dumps takes, once per source; the sources travel on stdin.
PythonAnswers askPython(const std::string& python, const std::string& check,
                        const std::vector<std::string>& sources);

}  // namespace gridlock::support
