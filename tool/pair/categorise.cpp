#include "pair/categorise.h"

namespace gridlock::pair {

bool needsRerun(Status baseline, Status change) {
  return change == Status::Invalid || (change == Status::Fail && baseline != Status::Fail);
}

Category categorise(Status baseline, Status change, bool passedOnRerun) {
  if (passedOnRerun && needsRerun(baseline, change)) return Category::Flaky;
  if (baseline == Status::Invalid || change == Status::Invalid) return Category::Invalid;
  if (change == Status::Fail)
    return baseline == Status::Fail ? Category::StillFailing : Category::NewFailure;
  if (change == Status::Pass) {
    if (baseline == Status::Fail) return Category::Fixed;
    return baseline == Status::Pass ? Category::PassedBoth : Category::Added;
  }
  // The change did not run it (skipped or gone).
  if (baseline == Status::Pass || baseline == Status::Fail) return Category::Removed;
  if (baseline == Status::Skip && change == Status::Skip) return Category::PassedBoth;
  return baseline == Status::Absent ? Category::Added : Category::Removed;
}

}  // namespace gridlock::pair
