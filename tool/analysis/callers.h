// Call-site resolution: every site that reaches a function or constructor, and whether it
// supplies a given parameter. Works on the whole-program index only: the class graph, the
// overrides and the argument bindings the frontend recorded; never names.
#pragma once

#include "analysis/value_escapes.h"
#include "index/program.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::analysis {

class CallersError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CallerSite {
  std::string file;
  unsigned line = 0, column = 0;
  std::string className;  // constructed class (constructions) or the class holding a base init
  facts::Via via = facts::Via::Call;
  facts::Supplied supplied = facts::Supplied::Explicit;
  facts::Passed passed = facts::Passed::Unknown;  // Python: how the site writes it
  std::string forwardedFrom;                      // "Qual::Name(param)" when forwarded
  std::string function;                           // the callee reached at this site
  std::string caller;                             // enclosing function of the site
  std::string callerUsr;
  size_t siteIndex = 0;  // into Program::sites
  int param = -1;        // the callee's parameter this site binds
  // The downstream checkout the site is in, as named (--downstream: seen, never edited); "" in
  // the tree. Set by downstream_callers.h, not by callers() or reach().
  std::string downstream;
};

struct CallersResult {
  std::string target, param;
  int paramIndex = -1;
  std::vector<std::string> classes;
  std::vector<CallerSite> sites;
  std::map<facts::Supplied, size_t> bySupplied;  // every value present, zeros included
  std::map<facts::Passed, size_t> byPassed;      // Python sites only, the values seen
  bool publicApi = false;                        // the target is declared in a public header
  // Where the target, a class it constructs (or one below it), or a function that forwards the
  // parameter to it, is handed on as a value the scan does not follow (Python): calls from
  // there are not among `sites`, which may then be incomplete.
  std::vector<Escape> escapes;
  // The target is a setter of a pack (`setters`): the state it writes (the rule's `writes`, else
  // the setter's own name), which each site writes.
  std::string writes;
  bool complete() const { return escapes.empty(); }
};

// Every site reaching (usr, param index) of the given roots, following forwarding through
// any number of functions and constructors, and overrides of virtual methods.
std::vector<CallerSite> reach(const index::Program& program,
                              const std::vector<std::pair<std::string, int>>& roots);

// Each place where what reaches the roots is handed on as a value (Python): a root function,
// the classes below a root constructor's class (`classes`, by name), and each function that
// forwards the parameter at one of `sites`. Calls from there are none of `sites`.
std::vector<Escape> escapesReaching(const index::Program& program,
                                    const std::vector<std::pair<std::string, int>>& roots,
                                    const std::vector<std::string>& classes,
                                    const std::vector<CallerSite>& sites);

// The same for a fallback's function `usr` and its parameter, whose `sites` reach() gives: a
// fallback that every site supplies is not dead while one of these is left.
std::vector<Escape> fallbackEscapes(const index::Program& program, const std::string& usr,
                                    int param, const std::vector<CallerSite>& sites);

// Throws CallersError when no function has that name, or it has no such parameter.
CallersResult callers(const index::Program& program, const std::string& function,
                      const std::string& param);

// The class with this USR and every class that derives from it, by name, sorted.
std::vector<std::string> hierarchyBelow(const index::Program& program, const std::string& classUsr);

}  // namespace gridlock::analysis
