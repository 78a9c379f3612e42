// The checks of a verification round (rewrite/core/verify.h), and what a backend says after
// its plan is verified and before anything is written.
#pragma once

#include "apply/edits.h"
#include "index/inventory.h"
#include "rewrite/core/plan.h"
#include "rewrite/core/plan_state.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::rewrite {

// Scans the codebase again with `overlay` (absolute path -> contents) in place of the files
// on disk, collecting the rewriter's facts.
using Rescan = std::function<index::Inventory(const std::map<std::string, std::string>& overlay)>;

// One round of one backend's verification: its plan, the files it makes, and what its checks
// hold back, log and warn.
struct Round {
  int number;  // 1-based
  const index::Inventory& before;
  const PlanState& planned;  // the round's plan, with the backend's own extras
  const apply::Prepared& prepared;
  HeldFiles& held;
  std::vector<std::string>& log;
  std::vector<std::string>& warnings;
  const Rescan& rescan;
  std::optional<index::Inventory> rescanned;
  // The rescan of `prepared`, made on first use and kept in `rescanned`.
  const index::Inventory& after() {
    if (!rescanned) rescanned = rescan(apply::overlayOf(prepared));
    return *rescanned;
  }
  bool replan = false;  // plan again though nothing was held (Python: without type hints)
  std::string error;    // with Outcome::Refuse
};

class Check {
 public:
  enum class Outcome { Pass, NextRound, Refuse };
  virtual ~Check() = default;
  virtual std::string_view id() const = 0;  // "reparse", "py_compile", "rescan", "pyright"
  // Skipped in a round where an earlier check held a file back (pyright: the slowest).
  virtual bool onlyWhenNothingHeld() const { return false; }
  // Pass; NextRound: start the next round at once, the checks after it not run; Refuse: the
  // rewrite stops with round.error.
  virtual Outcome run(Round& round) = 0;
};

// A backend's last word on a verified plan (C++: the callers outside every compile database).
struct Confirmation {
  std::vector<std::string> lines;  // for stderr, as the backend words them
  bool refused = false;
};

}  // namespace gridlock::rewrite
