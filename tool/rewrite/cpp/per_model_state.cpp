#include "rewrite/cpp/per_model_state.h"

#include "rewrite/cpp/substitute.h"

namespace gridlock::rewrite::cpp {

using facts::Left;

void PerModelState::runOn(CppState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (!s.open(i) || r.kind != facts::ReadKind::GlobalState || r.guard != facts::Guard::None)
      continue;
    if (s.blocked(i)) continue;
    if (r.hint.fix == facts::Hint::Substitute) {
      if (!s.sourceBlocked(i)) substituteRead(s, i, "{g}");  // the source names the field
      continue;
    }
    const rules::GlobalRule* g = s.rules.global(r.name);
    if (g && !g->thread.type.empty()) continue;  // the variable is threaded whole: Thread's
    if (!g || g->field.empty())
      s.leave(i, Left::NoSource,
              "mutable global state that the rule pack maps to no per-model field "
              "(globals[].field)");
    else
      s.leave(i, Left::NoSource,
              "no " + (g->type.empty() ? std::string("per-model state") : g->type) +
                  " in scope to read " + g->field + " from");
  }
}

}  // namespace gridlock::rewrite::cpp
