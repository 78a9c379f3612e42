// Thread: for each function holding reads that need a group, add the pack's parameter to it
// and to every caller, recursively (rewrite/cpp/thread_closure.h), and replace the reads with the
// parameter. A function is threaded only when its whole caller graph is closed; otherwise its
// reads say why. The parameter goes before the first defaulted one (defaults must trail), or
// last with `thread.position: last`. A method that cannot take it reads a member of its class
// instead: Thread hands those reads to Store (rewrite/cpp/store.h).
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp/cpp_state.h"
#include "rewrite/cpp/thread_closure.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::cpp {

class Thread : public StrategyOf<CppState> {
 public:
  std::string_view id() const override { return "thread"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Thread; }
  void runOn(CppState& s) override;

  // The read's value from `name`: the parameter, or the member that keeps it (Store).
  static CppState::Spelled valueOf(CppState& s, const facts::Read& r, const rules::ThreadRule& rule,
                                   const std::string& name);
  // "threaded through N function(s)": how far a closure of N functions reached.
  static std::string threadedThrough(size_t functions);

 private:
  // The reads that need a parameter (left as `thread` until a closure removes them).
  std::vector<size_t> candidates(CppState& s);
  // Candidates by the function that would take the parameter, once the pack can thread them.
  std::map<std::string, std::vector<size_t>> byFunction(CppState& s,
                                                        const std::vector<size_t>& reads);
  // Which classes keep the value: those the closures of `groups` make keep it for the methods
  // that cannot take a parameter alone (virtual ones, operators). Only the classes are kept
  // of these closures; the closures that count, made next, know them, so that the other
  // methods of those classes read the member too.
  std::set<std::string> keepingClasses(
      CppState& s, ClosureBuilder& builder,
      const std::map<std::string, std::vector<size_t>>& groups) const;
  // Replaces the reads of one closed function with the parameter.
  void replaceReads(CppState& s, const std::vector<size_t>& reads, const rules::ThreadRule& rule,
                    size_t functions);
  // The parameter in every declaration of every threaded function, the argument at every call.
  void editSignatures(CppState& s, const Closure& all,
                      const std::map<std::string, const rules::ThreadRule*>& ruleOf);
  // Whether the parameter would replace at least one of `reads`.
  bool spellsAny(CppState& s, const std::vector<size_t>& reads,
                 const rules::ThreadRule& rule) const;
  // Whether the read's function is a method Thread cannot change whose class may keep the
  // value (the closure checks the class).
  static bool storable(CppState& s, const facts::Read& r);
  // The pack's rule for the read: the global's own (globals[].thread) for global state, else
  // the pack's rewrite.thread; null when none.
  static const rules::ThreadRule* ruleFor(CppState& s, const facts::Read& r);
  // Why a const state parameter cannot replace the global in r's function: it writes it.
  static std::optional<std::string> writesState(CppState& s, const facts::Read& r,
                                                const rules::ThreadRule& rule);
  // The same for every function of the closure: the parameter would shadow the global there.
  static std::optional<std::string> closureWrites(CppState& s, const Closure& c,
                                                  const facts::Read& r,
                                                  const rules::ThreadRule& rule);
  static bool spelledAs(const facts::Read& r, const std::string& text);
};

}  // namespace gridlock::rewrite::cpp
