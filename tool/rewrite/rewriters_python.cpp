// The backends of the Python build (gridlock-python), in the order their plans merge: none yet,
// since tool/pyrewrite still plans the Python reads on its own (cli runs it); no C++ backend,
// which links Clang. The full build links rewriters_full.cpp instead.
#include "rewrite/core/rewriter.h"

namespace gridlock::rewrite {

Rewriters rewritersFor(const RewriteOptions&) { return {}; }

}  // namespace gridlock::rewrite
