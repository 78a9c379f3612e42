#include "rewrite/rewriter.h"

#include "rewrite/strategy.h"

namespace gridlock::rewrite {

using facts::Left;

const Strategies& CppRewriter::strategies() const { return rewrite::strategies(); }

bool CppRewriter::triageFirst(PlanState& s, size_t i) const {
  const facts::Read& r = s.read(i);
  if (r.enclosing.empty() || !s.rules.function(r.enclosing)) return false;
  // The legacy API itself: its calls are what the rewrite replaces, its body stays.
  s.leave(
      i, Left::None,
      "in the definition of accessor " + r.enclosing + ", which the rewrite replaces at its calls");
  return true;
}

bool CppRewriter::triageLast(PlanState& s, size_t i) const {
  const facts::Read& r = s.read(i);
  if (r.kind != facts::ReadKind::GlobalState || !r.mutated) return false;
  // `f(&cfg)`, `cfg.reset()`: a read that may also write, which a state field or a const
  // parameter cannot stand for; it stays as a write does.
  s.leave(i, Left::NoSource,
          (r.enclosing.empty() ? std::string("it") : r.enclosing) + " may change " + r.name +
              " here (a non-const method, or its address handed on): it stays");
  return true;
}

std::string CppRewriter::heldDetail(const std::string& file, const std::string& why) const {
  return "the rewritten " + file + " did not compile (" + why + "): its edits are rolled back";
}

}  // namespace gridlock::rewrite
