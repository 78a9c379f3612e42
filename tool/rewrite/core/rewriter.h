// A language is a backend: a Rewriter owns that language's reads, plans them with its
// strategies (rewrite/core/planner.h) and finishes and checks its edits. The core never learns
// a language: what differs between them is behind this interface.
#pragma once

#include "facts/facts.h"
#include "rewrite/core/plan_state.h"
#include "rewrite/core/strategy.h"

#include <memory>
#include <string>
#include <vector>

namespace gridlock::rewrite {

class Rewriter {
 public:
  virtual ~Rewriter() = default;
  virtual facts::Language language() const = 0;
  bool owns(const facts::Read& r) const { return r.language == language(); }
  virtual const Strategies& strategies() const = 0;
  // This language's triage reasons before and after the shared ones (rewrite/core/triage.h);
  // true: it left the read.
  virtual bool triageFirst(PlanState&, size_t) const { return false; }
  virtual bool triageLast(PlanState&, size_t) const { return false; }
  // The detail of a read in a file verification held back for `why`.
  virtual std::string heldDetail(const std::string& file, const std::string& why) const = 0;
};

}  // namespace gridlock::rewrite
