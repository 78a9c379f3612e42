// The backends of the Python build (gridlock-python): Python alone, no C++ backend (which links
// Clang). The full build links rewriters_full.cpp instead.
#include "rewrite/core/rewriter.h"
#include "rewrite/python/rewriter.h"

namespace gridlock::rewrite {

Rewriters rewritersFor(const RewriteOptions& options) {
  Rewriters out;
  out.push_back(std::make_unique<py::PyRewriter>(options));
  return out;
}

}  // namespace gridlock::rewrite
