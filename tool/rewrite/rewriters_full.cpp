// The backends of the full build, in the order their plans merge: C++ (tool/rewrite/python still
// plans the Python reads on its own).
#include "rewrite/core/rewriter.h"
#include "rewrite/cpp/rewriter.h"

namespace gridlock::rewrite {

Rewriters rewritersFor(const RewriteOptions& options) {
  Rewriters out;
  out.push_back(std::make_unique<cpp::CppRewriter>(options));
  return out;
}

}  // namespace gridlock::rewrite
