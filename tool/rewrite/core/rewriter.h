// A language is a backend: a Rewriter owns that language's reads, plans them with its
// strategies (rewrite/core/planner.h) and finishes and checks its edits. The core never learns
// a language: what differs between them is behind this interface.
#pragma once

#include "apply/edits.h"
#include "facts/facts.h"
#include "index/inventory.h"
#include "rewrite/core/check.h"
#include "rewrite/core/plan_state.h"
#include "rewrite/core/strategy.h"
#include "rules/rule_set.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gridlock::rewrite {

// What a command asks of every backend.
struct RewriteOptions {
  bool checkerMayBeMissing = false;  // Python: --python-checker warn
  // Python: --pyright-timeout, how long one pyright run may take (a failed run); 0: no limit.
  int pyrightTimeoutSeconds = 600;
  bool allowOutsideDb = false;  // C++: --allow-outside-db
};

// What one plan reads.
struct PlanInputs {
  const index::Inventory& inv;
  const rules::RuleSet& rules;
  const std::string& root;  // real path
  const HeldFiles& held;
  // Root-relative paths -> contents: the tree a second plan reads (the rewritten files).
  const std::map<std::string, std::string>& overlay;
};

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
  // A plan state for `in`, before triage: the backend's subclass of PlanState.
  virtual std::unique_ptr<PlanState> start(const PlanInputs& in) = 0;
  // The plan's edits made into files (apply::prepare), with what the language adds to them:
  // C++ #includes and clang-format.
  virtual apply::Prepared finish(const PlanState& planned, const std::string& root) = 0;
  // The checks of a verification round, in the order it runs them.
  virtual std::vector<Check*> checks() = 0;
  // What keeps the checks from running at all, known before anything is planned (Python: no
  // python3, or no pyright unless checkerMayBeMissing); "" when they can run.
  virtual std::string cannotVerify() const { return ""; }
  // The error when files are still held back after kMaxVerifyRounds rounds.
  virtual std::string tooManyRounds() const = 0;
  // The error when a plan of the verified result would still edit (`second`).
  virtual std::string notIdempotent(const Plan& second) const = 0;
  // After verification, before writing.
  virtual Confirmation confirm(const Plan&, const index::Inventory&, const std::string&) const {
    return {};
  }
};

using Rewriters = std::vector<std::unique_ptr<Rewriter>>;

// Every backend of this build, in the order their plans merge. Defined by the registration the
// binary links (rewrite/rewriters_full.cpp or rewriters_python.cpp), as
// pipeline/frontends_full.cpp and frontends_python.cpp define the frontends.
Rewriters rewritersFor(const RewriteOptions& options);

}  // namespace gridlock::rewrite
