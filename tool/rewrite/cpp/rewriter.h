// The C++ backend of the rewrite core (rewrite/core/rewriter.h): Clang's facts, the C++
// strategies (each a StrategyOf<CppState>; strategies.cpp lists them in the order they run),
// C++'s own triage, its finishing (#includes and clang-format: finish.h), the re-parse
// (reparse_check.h) and the callers outside every compile database (outside_db.h).
#pragma once

#include "rewrite/core/rewriter.h"
#include "rewrite/cpp/reparse_check.h"

namespace gridlock::rewrite::cpp {

class CppRewriter : public Rewriter {
 public:
  explicit CppRewriter(RewriteOptions options = {}) : options_(options) {}
  facts::Language language() const override { return facts::Language::Cpp; }
  // Substitute, PerModelState, Require, Thread, Store, Supply, Collapse.
  const Strategies& strategies() const override;
  // The legacy accessors' own definitions: their calls are what the rewrite replaces.
  bool triageFirst(PlanState& s, size_t i) const override;
  // A read in a file a run over some paths does not edit; a read of global state that may also
  // change it.
  bool triageLast(PlanState& s, size_t i) const override;
  std::string heldDetail(const std::string& file, const std::string& why) const override;
  // A CppState: the C++ reads are the ones it opens.
  std::unique_ptr<PlanState> start(const PlanInputs& in) override;
  apply::Prepared finish(const PlanState& planned, const std::string& root) override;
  std::vector<Check*> checks() override { return {&reparse_}; }
  std::string tooManyRounds() const override { return kNotPinned; }
  std::string notIdempotent(const Plan& second) const override;
  // Files no compile database lists that name a function whose parameter list changes: errors
  // that refuse the rewrite, or warnings with --allow-outside-db.
  Confirmation confirm(const Plan& plan, const index::Inventory& inv,
                       const std::string& root) const override;

 private:
  RewriteOptions options_;
  ReparseCheck reparse_;
};

}  // namespace gridlock::rewrite::cpp
