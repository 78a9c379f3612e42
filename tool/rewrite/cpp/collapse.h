// Collapse: in a function Thread could not change, two or more reads of groups that one
// collection holds become one lookup of that collection at the top of the body (the pack's
// rewrite.collapse) and fields of it: one global read instead of several, and one place to
// pass the collection in once the function can take it.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::cpp {

class Collapse : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "collapse"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Collapse; }
  void runOn(CppState& s) override;

 private:
  // The function-level reads Collapse may take, by enclosing function.
  std::map<std::string, std::vector<size_t>> candidates(CppState& s) const;
  void collapse(CppState& s, const std::string& usr, const std::vector<size_t>& reads);
};

}  // namespace gridlock::rewrite::cpp
