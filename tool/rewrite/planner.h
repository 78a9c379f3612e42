// The rewrite planner (docs/rewrite.md), internal to tool/rewrite: its state and strategies,
// defined in plan.cpp (the verdict for each read, Substitute, Require), thread.cpp (Thread)
// and collapse.cpp (Collapse).
#pragma once

#include "rewrite/plan.h"
#include "rewrite/supply.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::detail {

std::string at(const facts::Read& r);  // "file:line:col"
void replaceAll(std::string& s, const std::string& from, const std::string& to);
std::string escapeString(const std::string& s);  // for a C++ string literal
std::string noSpaces(const std::string& s);

class Planner {
 public:
  Planner(const index::Inventory& inv, const rules::RuleSet& rules, const ThreadFacts* facts,
          const HeldFiles* held)
      : inv_(inv), rules_(rules), facts_(facts), held_(held),
        supplies_(planSupplies(inv, rules, held)) {
    for (const auto& [usr, f] : inv.program.functions) byName_[f.name].push_back(&f);
  }

  Plan run();

 private:
  void left(facts::Read& r, const std::string& fix, std::string detail) {
    r.fix = fix;
    r.fixDetail = std::move(detail);
  }

  const rules::RewriteRules* packRules(const facts::Read& r) const {
    return rules_.rewriteFor(r.name);
  }

  // Why no edit may land in `file` (its rewritten TU did not compile), or null.
  const std::string* held(const std::string& file) const {
    if (!held_) return nullptr;
    auto it = held_->find(file);
    return it == held_->end() ? nullptr : &it->second;
  }

  // Spelled inside a macro of the codebase (not the rule macro itself, invoked in place).
  bool inMacro(const facts::Read& r) const { return r.macro && *r.macro != r.name; }

  // Why a read with no group in scope stays: the limits of threading a parameter into its
  // enclosing function.
  void threadVerdict(facts::Read& r);

  // A call that leaves the group out of a helper with a fallback: passes what it holds.
  void laundered(facts::Read& r);

  // Reasons shared by every strategy that edits the read in place.
  bool blocked(facts::Read& r);

  void decide(facts::Read& r, Plan& p);

  void substitute(facts::Read& r, Plan& p);

  void require(facts::Read& r, Plan& p);

  // Thread: for each function holding reads that need a group, add the pack's parameter to
  // it and to every caller, recursively, until a caller holds the group in scope (a parameter,
  // a local, a member; adapted to the parameter's type) or is an edge (an edge file, or main),
  // which passes the global itself. A function is threaded only when its whole caller graph is
  // closed; otherwise its reads say why. The parameter goes before the first defaulted one
  // (defaults must trail), so calls that wrote defaulted arguments get it before them.
  struct Closure {
    std::set<std::string> functions;
    std::map<std::string, unsigned> position;  // function USR -> index of the new parameter
    // (file, offset) -> the argument inserted there, and the call's "file:line:col"
    std::map<std::pair<std::string, unsigned>, std::pair<std::string, std::string>> args;
    std::set<std::string> edgeFiles;  // files where a caller passes the global
  };

  // Whether another overload of `fn` already has the parameter list `fn` would get.
  bool overloadClash(const facts::FunctionFact& fn, unsigned k, const rules::ThreadRule& rule);

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

  std::vector<Caller> callersOf(const facts::FunctionFact& fn);

  bool close(const std::string& start, const rules::ThreadRule& rule, Closure& c,
             std::string& fix, std::string& why);

  // The callees of every call resolved at (file, closing parenthesis).
  const std::set<std::pair<std::string, unsigned>>& calleesAt() {
    if (calleesAt_.empty() && facts_)
      for (const auto& [calleeUsr, cs] : facts_->calls)
        for (const auto& call : cs) calleesAt_.emplace(call.file, call.rparen);
    return calleesAt_;
  }

  // Reads whose function cannot take a parameter (public, virtual, an open caller graph):
  // Collapse may still turn several of them into one lookup.
  static std::string readKey(const facts::Read& r) {
    return r.file + ":" + std::to_string(r.offset) + ":" + std::to_string(r.line) + ":" +
           std::to_string(r.column);
  }
  void functionLevel(const facts::Read& r) { functionLevel_.insert(readKey(r)); }

  // The value a read becomes from the group expression `g` (a pointer or smart pointer when
  // `pointer`); "" when the pack does not say how to spell it. `derived`: more than `{g}`.
  // The template that spells a read's value from a group: the accessor's own `spell`, else
  // the pack's `rewrite.spell.<yields>`; "" when neither says.
  std::string spellTemplate(const facts::Read& r) const;

  std::string valueFrom(const facts::Read& r, const std::string& g, bool pointer, bool& derived);

  // Collapse: in a function Thread could not change, two or more reads of groups that one
  // collection holds become one lookup of that collection at the top of the body (the pack's
  // rewrite.collapse) and fields of it: one global read instead of several, and one place to
  // pass the collection in once the function can take it.
  void collapse(Plan& p);

  std::string threadValue(const facts::Read& r, const rules::ThreadRule& rule, bool& include);

  void thread(Plan& p);

  const index::Inventory& inv_;
  const rules::RuleSet& rules_;
  const ThreadFacts* facts_;
  const HeldFiles* held_;
  Supplies supplies_;
  std::set<std::string> functionLevel_;
  std::set<std::pair<std::string, unsigned>> calleesAt_;
  std::map<std::string, std::vector<const facts::FunctionFact*>> byName_;
};

}  // namespace gridlock::rewrite::detail
