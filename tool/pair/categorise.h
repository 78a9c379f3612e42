// The category of one test from its merged baseline and change statuses.
#pragma once

#include "pair/status.h"

namespace gridlock::pair {

// Retries are asymmetric: only the change is rerun, and only where a rerun could forgive it (a
// failure the baseline does not share, or an invalid result).
bool needsRerun(Status baseline, Status change);

// `passedOnRerun`: a rerun of a needsRerun() test passed, which makes it flaky. Skips count as
// "did not run": skip/skip is passed_both (nothing changed), pass->skip is removed (coverage
// lost), skip->pass is added, skip->fail is new_failure. A failing test that only the change has
// is a new_failure too: the change brought it in failing.
Category categorise(Status baseline, Status change, bool passedOnRerun);

}  // namespace gridlock::pair
