#include "rewrite/plan.h"

#include "rewrite/core/summary.h"
#include "rewrite/core/triage.h"
#include "rewrite/cpp_state.h"
#include "rewrite/rewriter.h"
#include "rewrite/strategy.h"

#include <stdexcept>

namespace gridlock::rewrite {
namespace {

// tool/pyrewrite plans the Python reads (pyrewrite::plan): Python's syntax is its own.
void leavePython(CppState& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s.read(i).language == facts::Language::Python)
      s.leave(i, facts::Left::Thread, "a Python read: the Python rewriter plans it");
}

}  // namespace

std::unique_ptr<CppState> planState(const index::Inventory& inv, const rules::RuleSet& rules,
                                    const HeldFiles* held) {
  auto s = std::make_unique<CppState>(inv, rules, held);
  leavePython(*s);
  CppRewriter backend;
  triage(backend, *s);
  for (const auto& strategy : backend.strategies()) strategy->run(*s);
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
