// pyright's new diagnostics that a group hint accounts for (rewrite/python/checker.h,
// groupMethodOnHint): a method the pack spells on a group, called on the hinted parameter,
// unknown to pyright's class of the hint. Anything else is still a failure.
#include "rewrite/python/checker.h"

#include <gtest/gtest.h>

#include <string>

namespace gridlock::rewrite::py {
namespace {

namespace pv = rewrite::py::checks;

const std::string kText =
    "def _width(x: int, cp_group: torch.distributed.ProcessGroup) -> int:\n"
    "    return x * cp_group.size() + self.cp_group.size() + cp_group.ranks\n";

const std::vector<GroupHint> kHints = {{"cp_group", "ProcessGroup", {"size", "rank"}}};

pv::Diagnostic at(int column, const std::string& attribute) {
  return {"pkg/sizes.py",
          2,
          column,
          pv::DiagnosticKind::AttributeAccess,
          "reportAttributeAccessIssue",
          "Cannot access attribute \"" + attribute +
              "\" for class \"ProcessGroup\"\n"
              "  Attribute \"" +
              attribute + "\" is unknown"};
}

// Columns in line 2: `cp_group.size()` puts size at 25, `self.cp_group.size()` at 48,
// `cp_group.ranks` at 66.
TEST(PyHintCheck, TheSpelledMethodOnTheHintedParameterIsAccepted) {
  EXPECT_TRUE(groupMethodOnHint({0, {at(25, "size")}}, kText, kHints));
}

TEST(PyHintCheck, AnotherAttributeOrAnotherObjectIsNot) {
  EXPECT_FALSE(groupMethodOnHint({0, {at(66, "ranks")}}, kText, kHints));
  EXPECT_FALSE(groupMethodOnHint({0, {at(48, "size")}}, kText, kHints));
  pv::Diagnostic other = at(25, "size");
  other.kind = pv::DiagnosticKind::CallIssue;
  EXPECT_FALSE(groupMethodOnHint({0, {other}}, kText, kHints));
  EXPECT_FALSE(groupMethodOnHint({0, {at(25, "size")}}, kText, {}));
}

// The plan imported torch.distributed (an empty param): the file's own hints are known to
// pyright now, so a spelled method on any receiver is accepted; another attribute is not.
TEST(PyHintCheck, AnImportedTorchDistributedAcceptsTheMethodOnAnyReceiver) {
  const std::vector<GroupHint> any = {{"", "ProcessGroup", {"size", "rank"}}};
  EXPECT_TRUE(groupMethodOnHint({0, {at(25, "size"), at(48, "size")}}, kText, any));
  EXPECT_FALSE(groupMethodOnHint({0, {at(66, "ranks")}}, kText, any));
}

// A key found before the change too: the places past its count before must all be ours.
TEST(PyHintCheck, PlacesTheKeyHadBeforeNeedNotBeOurs) {
  EXPECT_TRUE(groupMethodOnHint({1, {at(25, "size"), at(48, "size")}}, kText, kHints));
  EXPECT_FALSE(groupMethodOnHint({0, {at(25, "size"), at(48, "size")}}, kText, kHints));
}

}  // namespace
}  // namespace gridlock::rewrite::py
