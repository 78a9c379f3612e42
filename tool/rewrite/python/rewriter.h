// The Python backend of the rewrite core (rewrite/core/rewriter.h): the Python reads' plan
// state (PyState over the files, parsed again), Python's own triage reasons, its finishing
// (unused imports, long lines: prepare.h) and its checks: py_compile (compile_check.h), the
// re-scan (rescan_check.h) and pyright (pyright_check.h).
#pragma once

#include "rewrite/core/rewriter.h"
#include "rewrite/python/compile_check.h"
#include "rewrite/python/pyright_check.h"
#include "rewrite/python/rescan_check.h"

#include <set>
#include <string>

namespace gridlock::rewrite::py {

class PyRewriter : public Rewriter {
 public:
  explicit PyRewriter(const RewriteOptions& options = {})
      : options_(options), pyright_(options_, unhinted) {}
  PyRewriter(const PyRewriter&) = delete;  // its checks hold references into it

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
  std::vector<Check*> checks() override { return {&compile_, &rescan_, &pyright_}; }
  // No python3, or no pyright (unless checkerMayBeMissing): checker.h's checkerMissing.
  std::string cannotVerify() const override;
  std::string tooManyRounds() const override;
  std::string notIdempotent(const Plan& second) const override;

 private:
  RewriteOptions options_;
  CompileCheck compile_;
  RescanCheck rescan_;
  PyrightCheck pyright_;
};

}  // namespace gridlock::rewrite::py
