// The Python backend of the rewrite core (rewrite/core/rewriter.h): the Python reads' plan
// state (PyState over the files, parsed again), Python's own triage reasons, and its finishing
// (unused imports, long lines: prepare.h).
#pragma once

#include "rewrite/core/rewriter.h"

#include <set>
#include <string>

namespace gridlock::rewrite::py {

class PyRewriter : public Rewriter {
 public:
  // Files whose edits write no type hint (verification found one the checker rejects).
  std::set<std::string> unhinted;

  facts::Language language() const override { return facts::Language::Python; }
  // A read of a pack without rewrite.python, and module state a `from m import x` imports by
  // name: no spelling replaces either.
  bool triageLast(PlanState& s, size_t i) const override;
  std::string heldDetail(const std::string& file, const std::string& why) const override;
  // A PyState over the files under the root, the overlay's contents first.
  std::unique_ptr<PlanState> start(const PlanInputs& in) override;
  apply::Prepared finish(const PlanState& planned, const std::string& root) override;
  // Laundered calls, Require, Substitute, Store, Thread, Thread's calls, Collapse, edge calls,
  // local aliases (strategies.cpp).
  const Strategies& strategies() const override;
  // py_compile, the re-scan and pyright still run in verify.h's loop (planAndVerify).
  std::vector<Check*> checks() override { return {}; }
  std::string tooManyRounds() const override;
  std::string notIdempotent(const Plan& second) const override;
};

}  // namespace gridlock::rewrite::py
