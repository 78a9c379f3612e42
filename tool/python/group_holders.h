// Which tested value a fallback falls back from: a holder of a group (docs/scan.md, "What
// counts as a read in Python"). Python has no declared types to ask, so, as Pyright infers a
// variable's type from what flows into it, a value is a group holder where the code makes it
// stand for what a read of the packs gives: the read is assigned to it in the guarded branch,
// or it and the read are the two values one expression or one assigned name takes
// (`g or read`, `t = g.size()` in one branch and `t = read` in the other: guards.h `flows`).
// A value compared with None (or tested by hasattr) is one too when its name or its
// parameter's annotation names a group holder (namesGroupHolder); a truth test's value only
// by what flows (a flag named `tp_comm_overlap` is no group).
#pragma once

#include "python/module_facts.h"

#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace gridlock::python {

// Whether a name, chain or annotation names a holder of a group: the last word (split at
// `_` and at the humps of CamelCase) of one of its identifiers, `self` and `cls` aside, is
// group(s), pg(s), collection, communicator or comm: `tp_group`, `self.pg_collection`,
// `p2p_communicator`, `Optional[torch.distributed.ProcessGroup]`, `ProcessGroupCollection`.
bool namesGroupHolder(std::string_view text);

class GroupHolders {
 public:
  // `flowing`: the guards (construct, holder) that some read of the packs flows into.
  GroupHolders(const ModuleFacts& m, std::set<std::pair<unsigned, std::string>> flowing)
      : m_(m), flowing_(std::move(flowing)) {}

  // The innermost guard of `ref` whose holder holds a group (its fallback), or null. A
  // disjunction's other values must hold one too (by flow or by name).
  const Ref::Guard* fallback(const Ref& ref) const;

 private:
  bool holds(const Ref& ref, const Ref::Guard& g) const;

  const ModuleFacts& m_;
  std::set<std::pair<unsigned, std::string>> flowing_;
};

}  // namespace gridlock::python
