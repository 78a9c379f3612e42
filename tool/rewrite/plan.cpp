#include "rewrite/plan.h"

#include "rewrite/core/summary.h"
#include "rewrite/cpp_state.h"
#include "rewrite/strategy.h"

#include <stdexcept>

namespace gridlock::rewrite {
namespace {

using facts::Left;

// Verdicts no strategy needs to think about: writes, edges, the accessors' own definitions,
// suppressed reads, reads in files whose rewritten TU did not compile, and reads of a global
// that may also change it.
void triage(CppState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const facts::Read& r = s.read(i);
    if (r.language == facts::Language::Python)
      // tool/pyrewrite plans these (pyrewrite::plan): Python's syntax is its own.
      s.leave(i, Left::Thread, "a Python read: the Python rewriter plans it");
    else if (r.kind == facts::ReadKind::GlobalWrite)
      s.leave(i, Left::Unset, "");
    else if (r.edge)
      s.leave(i, Left::None, "edge file: reads are allowed here");
    else if (!r.enclosing.empty() && s.rules.function(r.enclosing))
      // The legacy API itself: its calls are what the rewrite replaces, its body stays.
      s.leave(i, Left::None,
              "in the definition of accessor " + r.enclosing +
                  ", which the rewrite replaces at its calls");
    else if (r.suppressed)
      s.leave(i, Left::None, "suppressed: " + *r.suppressed);
    else if (const std::string* why = s.held(r.file))
      s.leave(
          i, Left::CompileError,
          "the rewritten " + r.file + " did not compile (" + *why + "): its edits are rolled back");
    else if (r.kind == facts::ReadKind::GlobalState && r.mutated)
      // `f(&cfg)`, `cfg.reset()`: a read that may also write, which a state field or a const
      // parameter cannot stand for; it stays as a write does.
      s.leave(i, Left::NoSource,
              (r.enclosing.empty() ? std::string("it") : r.enclosing) + " may change " + r.name +
                  " here (a non-const method, or its address handed on): it stays");
  }
}

}  // namespace

std::unique_ptr<CppState> planState(const index::Inventory& inv, const rules::RuleSet& rules,
                                    const HeldFiles* held) {
  auto s = std::make_unique<CppState>(inv, rules, held);
  triage(*s);
  for (const auto& strategy : strategies()) strategy->run(*s);
  for (size_t i = 0; i < s->size(); ++i)
    if (s->open(i))
      throw std::logic_error("internal: no rewrite strategy decided on the read at " +
                             at(s->read(i)));
  return s;
}

Plan plan(const index::Inventory& inv, const rules::RuleSet& rules, const HeldFiles* held) {
  return std::move(planState(inv, rules, held)->plan);
}

std::string summaryLine(const Plan& plan, const index::Inventory& inv) {
  std::vector<const Strategy*> registered;
  for (const auto& strategy : strategies()) registered.push_back(strategy.get());
  return summaryLine(plan, inv, registered);
}

}  // namespace gridlock::rewrite
