// Store: a method Thread cannot change (virtual, overriding, an operator; or another method of
// a class that keeps the value) reads the pack's value from a member of its class instead of a
// parameter. Thread's closures decide which methods and classes (rewrite/cpp/thread_closure.h) and
// give every constructor of those classes the parameter; Store replaces the methods' reads with
// the member, declares it at the end of each class's body, and initialises it from the
// parameter in every constructor that does not delegate.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"

#include <string>

namespace gridlock::rewrite::cpp {

class Store : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "store"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Store; }
  void runOn(CppState& s) override;

 private:
  // The reads of one method, replaced with the member its class keeps.
  static void replaceReads(CppState& s, const CppState::Stored& method);
  // The member and its initializers in each class that keeps the value. A class derived from
  // another of them declares none: it uses its base's, which is protected. Returns how many
  // classes declare one.
  static size_t declareMembers(CppState& s);
};

// The text inserted at ClassBodyFact::memberAt to declare `decl` ("const T &env_") with
// `access` (private, protected): on its own line at the class's member indent, after the
// access label when the class ends in another access.
std::string memberDeclaration(const facts::ClassBodyFact& k, const std::string& decl,
                              facts::Access access);

}  // namespace gridlock::rewrite::cpp
