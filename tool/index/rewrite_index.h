// What the rewriter needs beyond the reads and the whole-program index, merged across
// translation units: each declaration's parameter list, every direct call, functions whose
// address is taken, names in skipped preprocessor branches, dependent calls in templates, and
// the bodies of the classes defined under the root.
// Collected only when a scan asks for it (ScanOptions::rewriteFacts): a plain scan or gate
// does not pay for it.
#pragma once

#include "facts/facts.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace gridlock::index {

struct RewriteIndex {
  bool collected = false;  // the scan collected these facts (else everything below is empty)
  std::map<std::string, std::vector<facts::ParamListFact>> lists;  // by USR, one per place
  std::map<std::string, std::vector<facts::CallFact>> calls;       // by callee USR, one per place
  std::set<std::string> addressTaken;
  // Identifiers named in preprocessor branches that every unit compiling their place skips:
  // name -> "file:line" of the first such place. A call there would not get a new argument.
  std::map<std::string, std::string> skippedNames;
  std::map<std::string, std::vector<facts::DependentCallFact>> dependentCalls;  // by name
  // The branches of preprocessor conditionals, by file, once per place (whichever unit saw
  // them): what a read or a declaration is compiled only under.
  std::map<std::string, std::vector<facts::ConditionalFact>> conditionals;
  // Class bodies by class USR (the first unit's, as Program's classes): Store's facts.
  std::map<std::string, facts::ClassBodyFact> classBodies;

  // The body of class `usr`, or null when no unit defines it under the root.
  const facts::ClassBodyFact* bodyOf(const std::string& usr) const {
    auto it = classBodies.find(usr);
    return it == classBodies.end() ? nullptr : &it->second;
  }

  // Adds one TU's facts; a header's declaration or call seen by several TUs counts once.
  void add(facts::TuFacts& tu);
  // After the last add: what no unit compiles, from the places every unit including a file
  // skips (a file one unit skips under `#ifndef TESTING` is compiled by another).
  void finish();

 private:
  std::map<std::string, size_t> includers_;  // file -> units that include it (or are it)
  // (file, offset, name) -> units skipping it, and its line
  std::map<std::tuple<std::string, unsigned, std::string>, std::pair<size_t, unsigned>> skips_;
  // A list once per place and function; the declarations one macro expands (gtest's TEST: a
  // method and its definition) share their place, and each counts.
  std::set<std::tuple<std::string, unsigned, std::string, bool>> seenLists_;
  std::set<std::tuple<std::string, unsigned, std::string>> seenCalls_, seenDependent_;
  std::set<std::pair<std::string, unsigned>> seenConditionals_;
};

}  // namespace gridlock::index
