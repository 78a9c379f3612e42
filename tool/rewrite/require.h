// Require: a fallback (`pg ? pg : global()`) whose parameter every call site supplies (after
// Supply gives the sites that leave it out what they hold) becomes a loud failure typed like
// the read: `gridlock::require_group<T>("X requires an explicit pg")`.
#pragma once

#include "rewrite/strategy.h"

namespace gridlock::rewrite {

class Require : public Strategy {
 public:
  void run(CppState& s) override;
  std::string describe(const Plan& plan) const override;

 private:
  void require(CppState& s, size_t i);
};

}  // namespace gridlock::rewrite
