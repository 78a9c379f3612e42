// The frontends of the full build (gridlock): C++ through Clang, then Python. The Python build
// (gridlock-python) links frontends_python.cpp instead; a binary links exactly one of the two.
#include "pipeline/cpp_frontend.h"
#include "pipeline/frontend.h"
#include "pipeline/python_frontend.h"

#include <clang/Basic/Version.h>

#include <stdexcept>

namespace gridlock::pipeline {
std::vector<std::unique_ptr<Frontend>> frontendsFor(const ScanRequest& request,
                                                    const rules::RuleSet& rules) {
  // No build directory: Python only, when the packs or the config ask for it.
  bool python = readsPython(request, rules);
  if (request.buildDir.empty() && !python) throw std::runtime_error(request.noBuildDir);
  std::vector<std::unique_ptr<Frontend>> out;
  out.push_back(std::make_unique<CppFrontend>(request, /*pythonToo=*/python));
  if (python) out.push_back(std::make_unique<PythonFrontend>(request));
  return out;
}

std::string buildDescription() {
  // CLANG_VERSION_STRING is the version of the Clang headers (and so of libclang-cpp) this
  // binary was compiled against.
  return std::string("built with Clang ") + CLANG_VERSION_STRING;
}

bool readsCompileDatabases() { return true; }

}  // namespace gridlock::pipeline
