#include "rewrite/cpp/substitute.h"

namespace gridlock::rewrite::cpp {

using facts::Left;

void substituteRead(CppState& s, size_t i, const std::string& tmpl) {
  const facts::Read& r = s.read(i);
  CppState::Spelled spelled =
      r.hint.sourceEnv ? s.valueFromEnv(r, r.hint.source, r.hint.sourcePointer)
      : tmpl.empty()   ? s.valueFrom(r, r.hint.source, r.hint.sourcePointer)
                       : s.spellRead(r, tmpl, r.hint.source, r.hint.sourcePointer);
  if (spelled.text.empty()) return s.leave(i, Left::NoSpelling, spelled.why);
  const std::string& text = spelled.text;
  s.replaceRead(i, text, spelled.derived, facts::Strategy::Substitute);
  ++s.tally(facts::Strategy::Substitute).reads;
  s.apply(i, facts::Strategy::Substitute, "replaced with " + text);
}

void Substitute::runOn(CppState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (!s.open(i) || r.hint.fix != facts::Hint::Substitute || r.guard != facts::Guard::None ||
        r.kind == facts::ReadKind::GlobalState || r.kind == facts::ReadKind::Laundered)
      continue;
    if (s.blocked(i) || s.sourceBlocked(i)) continue;
    if (r.mutated && r.yields == facts::Yields::Collection) {
      // `Env::Instance().Init(...)`: what is in scope may be const; the write stays as written.
      s.leave(i, Left::NoSource,
              r.enclosing + " changes what " + r.name + " returns: it stays, not the " +
                  r.hint.source + " in scope");
      continue;
    }
    // A whole collection is the source itself; any other value is the pack's to spell.
    std::string tmpl;
    if (r.yields == facts::Yields::Collection) tmpl = r.hint.sourcePointer ? "(*{g})" : "{g}";
    substituteRead(s, i, tmpl);
  }
}

}  // namespace gridlock::rewrite::cpp
