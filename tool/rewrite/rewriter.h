// The C++ backend of the rewrite core (rewrite/core/rewriter.h): Clang's facts, the C++
// strategies (rewrite/strategies.cpp) and C++'s own triage.
#pragma once

#include "rewrite/core/rewriter.h"

namespace gridlock::rewrite {

class CppRewriter : public Rewriter {
 public:
  facts::Language language() const override { return facts::Language::Cpp; }
  const Strategies& strategies() const override;
  // The legacy accessors' own definitions: their calls are what the rewrite replaces.
  bool triageFirst(PlanState& s, size_t i) const override;
  // A read of global state that may also change it.
  bool triageLast(PlanState& s, size_t i) const override;
  std::string heldDetail(const std::string& file, const std::string& why) const override;
};

}  // namespace gridlock::rewrite
