#include "rewrite/python/rewriter.h"

#include "rewrite/python/prepare.h"
#include "rewrite/python/py_state.h"
#include "rewrite/python/ts_node.h"

namespace gridlock::rewrite::py {
namespace {

using facts::Left;

// Whether read `i` is module state a `from m import x` statement imports by name: the import
// copies the value when it runs (the copy's uses read nothing), and no spelling can stand for
// a name in an import.
bool importedByName(PyState& s, size_t i) {
  const facts::Read& r = s.read(i);
  if (r.kind != facts::ReadKind::GlobalState) return false;
  auto p = s.place(r);
  return p && ts::is<"import_from_statement">(PySource::statementOf(p->node));
}

}  // namespace

bool PyRewriter::triageLast(PlanState& state, size_t i) const {
  PyState& s = static_cast<PyState&>(state);
  if (!s.rule(s.read(i))) {
    s.leave(i, Left::NoSpelling, "the rule pack has no rewrite.python");
    return true;
  }
  if (!importedByName(s, i)) return false;
  s.leave(i, Left::NoSpelling,
          "imported by name, which copies the state when the import runs: no spelling replaces a "
          "name in an import (import the module and read the state where it is used)");
  return true;
}

std::string PyRewriter::heldDetail(const std::string& file, const std::string& why) const {
  return "the rewritten " + file + " did not pass verification (" + why +
         "): its edits are rolled back";
}

std::unique_ptr<PlanState> PyRewriter::start(const PlanInputs& in) {
  auto s = std::make_unique<PyState>(in.inv, in.rules,
                                     std::make_unique<Sources>(in.root, in.overlay), &in.held);
  s->unhinted = unhinted;
  return s;
}

apply::Prepared PyRewriter::finish(const PlanState& planned, const std::string& root) {
  return prepare(planned.plan.edits, planned.inv, root);
}

std::string PyRewriter::tooManyRounds() const {
  return "the rewrite still fails verification after holding files back; nothing written";
}

std::string PyRewriter::notIdempotent(const Plan& second) const {
  return "internal: a second pass would still edit " + std::to_string(second.edits.size()) +
         " place(s) of Python, first " + second.edits[0].why + "; nothing written";
}

}  // namespace gridlock::rewrite::py
