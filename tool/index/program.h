// The whole-program index: functions and classes once per USR (a header's facts count once
// however many TUs include it), and every call or construction site once.
#pragma once

#include "facts/facts.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace gridlock::index {

struct Program {
  std::map<std::string, facts::FunctionFact> functions;  // by USR
  std::map<std::string, facts::ClassFact> classes;       // by USR
  std::vector<facts::SiteFact> sites;                    // sorted by file, line, column
  std::multimap<std::string, size_t> sitesByCallee;      // callee USR -> index into sites
  // Python: classes and functions handed on as values the scan does not follow, once each.
  std::vector<facts::ValueFact> values;

  void add(std::vector<facts::FunctionFact> fns, std::vector<facts::ClassFact> cls,
           std::vector<facts::SiteFact> sites);
  void addValues(std::vector<facts::ValueFact> values);
  // Room for `count` sites in all (a hint: the sites of some ten thousand calls, moved as the
  // vector grows, cost a warm Python scan a tenth of its merge).
  void reserveSites(size_t count);
  void finish();  // sort and index the sites
  // The class `usr` and every class it derives from, directly or not (indexed or not).
  std::set<std::string> ancestors(const std::string& usr) const;

 private:
  // The sites added so far, by the hash of where they are and what they call: an index into
  // `sites` (no copy of their strings: a warm Python scan adds some ten thousand).
  std::unordered_multimap<size_t, size_t> seen_;
};

}  // namespace gridlock::index
