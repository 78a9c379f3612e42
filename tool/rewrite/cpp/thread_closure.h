// Thread's closure: from a function whose reads need a group, the functions that must take the
// pack's parameter, following callers until each holds the group in scope (a parameter, a
// local, a member; adapted to the parameter's type) or is an edge (an edge file, or main),
// which passes the global itself. A method that cannot take a parameter (virtual, an operator)
// passes a member of its class instead, when the rule stores: every constructor of the class
// then takes the parameter and keeps it (Store); so does any other method of a class known to
// keep it (keeps()). The closure fails, with a reason, when any function in it cannot take a
// parameter or any caller cannot pass one.
#pragma once

#include "rewrite/cpp/cpp_state.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::cpp {

struct Closure {
  std::set<std::string> functions;           // USRs that get the parameter
  std::map<std::string, unsigned> position;  // function USR -> index of the new parameter
  // (file, offset) -> the argument inserted there, and the call's "file:line:col"
  std::map<std::pair<std::string, unsigned>, std::pair<std::string, std::string>> args;
  // Keys of `args` inserted before a written argument -> the parameter's name.
  std::map<std::pair<std::string, unsigned>, std::string> argNames;
  std::set<std::string> edgeFiles;  // files where a caller passes the global
  // Per caller USR, where it passes the rule's edge (keys of `args`): what hoisting reads.
  std::map<std::string, std::vector<std::pair<std::string, unsigned>>> edgeArgs;
  // Store: the methods that take the value from a member of their class instead of a
  // parameter (virtual ones, operators, other methods of a class known to keep it; method USR
  // -> class USR), and those classes, whose constructors are in `functions`.
  std::map<std::string, std::string> stores;
  std::set<std::string> storeClasses;
};

// Why a closure cannot be made.
struct Refusal {
  facts::Left left;
  std::string why;
};

// Whether `fn` is a method Thread cannot change (virtual, overriding, an operator other than
// new and delete) whose class may keep the value instead, as `rule` allows.
bool storePoint(const facts::FunctionFact& fn, const rules::ThreadRule& rule);

class ClosureBuilder {
 public:
  explicit ClosureBuilder(CppState& s) : s_(s) {}

  // Fills `c` from `start`, or says why it cannot.
  std::optional<Refusal> close(const std::string& start, const rules::ThreadRule& rule, Closure& c);

  // Classes known to keep the value (from closures made before): their other methods read the
  // member too, rather than take a parameter (see keeps()).
  void keeping(std::set<std::string> classes) { keeping_ = std::move(classes); }

 private:
  // One call or construction of a function being threaded.
  struct Caller {
    std::string site;
    std::string file;
    std::string callerUsr;
    bool inMacro = false, inLambda = false;
    unsigned rparen = 0, written = 0;
    std::vector<unsigned> argBegins;
    const std::vector<facts::SourceFact>* sources = nullptr;
  };

  // Whether `fn` takes the value from its class's member: a storePoint(), or a method of a
  // class known to keep it that has an object (not static, not a constructor, not public
  // API) and is called from no constructor (in an initializer list the member may not be
  // initialised yet).
  bool keeps(const facts::FunctionFact& fn, const rules::ThreadRule& rule) const;
  // Whether `fn` itself can take a parameter (not what its callers do).
  std::optional<Refusal> checkFunction(const std::string& usr, const facts::FunctionFact& fn);
  // Makes `fn` take the value from its class's member: the class's constructors join the
  // closure. Says why the class cannot keep it.
  std::optional<Refusal> addStore(const facts::FunctionFact& fn, const rules::ThreadRule& rule,
                                  Closure& c, std::vector<std::string>& work);
  // Why `k` cannot keep the value for its method `fn`: a member name taken, a constructor
  // with no body to initialise it in, a template, a copy constructor of its own.
  std::optional<Refusal> checkStoreClass(const facts::FunctionFact& fn, const facts::ClassFact& k,
                                         const rules::ThreadRule& rule);
  // For a template: whether every call of it is seen.
  std::optional<Refusal> checkTemplate(const facts::FunctionFact& fn, const std::string& simple);
  // Where the parameter goes in `fn`, or why it cannot.
  std::optional<Refusal> position(const facts::FunctionFact& fn, const rules::ThreadRule& rule,
                                  unsigned& k);
  // What `call` passes for the parameter at `k`; a caller holding nothing joins the closure.
  std::optional<Refusal> addCall(const Caller& call, const facts::FunctionFact& fn,
                                 const rules::ThreadRule& rule, unsigned k, Closure& c,
                                 std::vector<std::string>& work);
  std::vector<Caller> callersOf(const facts::FunctionFact& fn) const;
  // Whether another overload of `fn` already has the parameter list `fn` would get.
  bool overloadClash(const facts::FunctionFact& fn, unsigned k,
                     const rules::ThreadRule& rule) const;
  // The callees of every call resolved at (file, closing parenthesis).
  const std::set<std::pair<std::string, unsigned>>& calleesAt();
  // Where code this build leaves out may name `fn` (its simple name, or a qualified name
  // whose qualifier is not a class that rules it out), or nothing.
  std::optional<std::string> namedWhereSkipped(const facts::FunctionFact& fn,
                                               const std::string& simple);
  // Whether every class named `simple` is unrelated to `classUsr` (neither it nor derived
  // from it); false when no class has that name.
  bool otherClass(const std::string& simple, const std::string& classUsr);

  CppState& s_;
  std::set<std::string> keeping_;
  std::set<std::pair<std::string, unsigned>> calleesAt_;
  std::multimap<std::string, std::string> classesBySimpleName_;  // simple name -> class USR
};

}  // namespace gridlock::rewrite::cpp
