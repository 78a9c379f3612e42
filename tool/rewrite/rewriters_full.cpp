// The backends of the full build, in the order their plans merge: C++, then Python.
#include "rewrite/core/rewriter.h"
#include "rewrite/cpp/rewriter.h"
#include "rewrite/python/rewriter.h"

namespace gridlock::rewrite {

Rewriters rewritersFor(const RewriteOptions& options) {
  Rewriters out;
  out.push_back(std::make_unique<cpp::CppRewriter>(options));
  out.push_back(std::make_unique<py::PyRewriter>(options));
  return out;
}

}  // namespace gridlock::rewrite
