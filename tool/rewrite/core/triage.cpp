#include "rewrite/core/triage.h"

namespace gridlock::rewrite {

using facts::Left;

void triage(const Rewriter& backend, PlanState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (!s.open(i)) continue;
    const facts::Read& r = s.read(i);
    if (r.kind == facts::ReadKind::GlobalWrite)
      s.leave(i, Left::Unset, "");
    else if (r.edge)
      s.leave(i, Left::None, "edge file: reads are allowed here");
    else if (backend.triageFirst(s, i))
      continue;
    else if (r.suppressed)
      s.leave(i, Left::None, "suppressed: " + *r.suppressed);
    else if (const std::string* why = s.held(r.file))
      s.leave(i, Left::CompileError, backend.heldDetail(r.file, *why));
    else
      backend.triageLast(s, i);
  }
}

}  // namespace gridlock::rewrite
