#include "pair/status.h"

namespace gridlock::pair {

std::string_view name(Status s) {
  switch (s) {
    case Status::Pass:
      return "pass";
    case Status::Fail:
      return "fail";
    case Status::Skip:
      return "skip";
    case Status::Invalid:
      return "invalid";
    case Status::Absent:
      return "absent";
  }
  return "?";
}

// These strings are the JSON contract (docs/contracts.md, schema/pair-report.schema.json).
std::string_view name(Category c) {
  switch (c) {
    case Category::PassedBoth:
      return "passed_both";
    case Category::NewFailure:
      return "new_failure";
    case Category::Fixed:
      return "fixed";
    case Category::StillFailing:
      return "still_failing";
    case Category::Flaky:
      return "flaky";
    case Category::Added:
      return "added";
    case Category::Removed:
      return "removed";
    case Category::Invalid:
      return "invalid";
  }
  return "?";
}

}  // namespace gridlock::pair
