// Require (docs/rewrite.md, "Python"): a fallback every call supplies the group to (dead, or
// made dead by Supply) becomes an error naming the missing argument:
//   if tp_group is None:                      if tp_group is None:
//       tp_group = get_tp_group()       ->        raise ValueError("MLP requires an explicit
//       tp_group")
// and `tp_group = tp_group or get_tp_group()` becomes that `if` statement.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

#include <map>
#include <string>

namespace gridlock::rewrite::py {

// The quote the file's error messages use: that of the first `raise X('...')`, else the
// double quote black writes (what a string the rewrite writes in the file takes).
char messageQuote(const std::string& text);

// Decides fallback read `i`: a check when every call supplies the argument (the analysis says
// it is dead, or each call that leaves it out is in `supplied`, "file:line:col" -> "" when
// Supply gave it the group, else why not).
void requireArgument(PyState& s, size_t i, const std::map<std::string, std::string>& supplied);

// Each open fallback read, in inventory order: requireArgument, then, where the fallback stays,
// substituteKeptFallback (substitute.h).
class Require : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "require"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Require; }
  void runOn(PyState& s) override;
};

}  // namespace gridlock::rewrite::py
