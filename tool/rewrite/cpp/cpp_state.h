// What the C++ strategies of one plan share, besides the core's state (the facts, the
// verdicts, edits and tallies): the #includes their edits need, and the checks and spellings
// more than one of them makes. Internal to tool/rewrite.
#pragma once

#include "rewrite/core/plan_state.h"
#include "rewrite/cpp/plan.h"
#include "rewrite/cpp/supply_plan.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::cpp {

class CppState : public PlanState {
 public:
  static constexpr facts::Language kLanguage = facts::Language::Cpp;
  CppState(const index::Inventory& inv, const rules::RuleSet& rules, const HeldFiles* held);

  // Replaces read `i` with `text` (an edit of `strategy`); a `derived` value (Spelled) calls
  // into the group's type, whose header (rewrite.spell_include) the file then includes.
  void replaceRead(size_t i, const std::string& text, bool derived, facts::Strategy strategy);

  // The #includes the edits need, in the order strategies asked for them (finish.h
  // makes them into files); the first of each file is its SARIF fixes' note (Plan::fixNotes).
  std::vector<Include> includes;
  void include(Include i);

  // --- facts several strategies read ---
  const rules::RewriteRules* packRules(const facts::Read& r) const {
    return rules.rewriteFor(r.name);
  }
  // Spelled inside a macro of the codebase (not the rule macro itself, invoked in place).
  static bool inMacro(const facts::Read& r) { return r.macro && *r.macro != r.name; }
  // The namespace `fn` is declared in, as type_spelling.h enclosingNamespace() gives it: where
  // a type it names is spelled relative to.
  std::string namespaceOf(const facts::FunctionFact& fn) const;
  // The definition of `usr` in `file`, when the rewriter's facts have it (its bodyFirst is 0
  // when no statement starts it where a declaration can go).
  const facts::ParamListFact* definitionIn(const std::string& usr, const std::string& file) const;
  // `rule`'s edge expression as written in `caller`'s body in `file`: relative to its
  // namespace, through the aliases and using-directives its file has there (type_spelling.h).
  std::string edgeIn(const rules::ThreadRule& rule, const facts::FunctionFact* caller,
                     const std::string& file) const;
  // Functions by qualified name (overloads share one).
  const std::vector<const facts::FunctionFact*>* functionsNamed(const std::string& name) const;
  // Call sites that leave a group out, each given what it holds (computed once, on first use).
  const Supplies& supplies();
  // What Thread's closures leave to Store (rewrite/cpp/store.h): the reads of each method that
  // takes the value from a member of its class (with the rule, the class's USR and how many
  // functions the closure threads), and each class that keeps it, with the rule it keeps.
  struct Stored {
    std::vector<size_t> reads;
    const rules::ThreadRule* rule;
    size_t functions;
    std::string classUsr;
  };
  std::vector<Stored> stored;
  std::map<std::string, const rules::ThreadRule*> storeClasses;
  // A local one strategy declares before a function's first statement (Thread's hoisted edge,
  // Collapse's lookup), by function USR: another that wants the same local uses it instead of
  // declaring the name again.
  struct Local {
    std::string name, type, init;
  };
  std::map<std::string, Local> locals;

  // The include a declaration in `file` that names `rule`'s type needs (none when the rule
  // names no header): its forward declaration instead where a header only takes the type by
  // reference or pointer and `definition` is false (a definition may use the type).
  void includeType(const std::string& file, const rules::ThreadRule& rule, bool definition);

  // --- checks shared by strategies ---
  // Reasons every strategy that edits the read in place shares (a macro, a named accessor, a
  // default argument, no range): leaves the read and says true.
  bool blocked(size_t i);
  // Reasons a read with a source in scope cannot use it there (a lambda, an initializer list).
  bool sourceBlocked(size_t i);
  // At file scope, or in something that is not an indexed function: nothing can take a group
  // there. Leaves the read as `no_source` and says true.
  bool noEnclosingFunction(size_t i);
  // Why the read's enclosing function cannot take a parameter (public API, virtual): leaves
  // the read, marks it function-level (Collapse may take it) and says true.
  bool functionLimits(size_t i);
  // Reads Collapse may still take: their function could not be changed.
  void markFunctionLevel(size_t i) { functionLevel_.insert(i); }
  bool functionLevel(size_t i) const { return functionLevel_.count(i) > 0; }

  // The template that spells a read's value from a group: the accessor's own `spell`, else
  // the pack's `rewrite.spell.<yields>`; "" when neither says.
  std::string spellTemplate(const facts::Read& r) const;

  // What replaces a read, or why nothing can.
  struct Spelled {
    std::string text;      // "" when it cannot be spelled
    std::string why;       // then, why not
    bool derived = false;  // the template is more than `{g}`: it needs the group's full type
  };
  // `tmpl` spelled for `r` from the group expression `g` (a pointer or smart pointer when
  // `pointer`), with the accessor call's arguments in place of `{0}`, `{1}`, ...: a call whose
  // arguments the template does not carry (`RankOf(dp, i++)` for `{g}->rank()`) cannot be
  // replaced, or the arguments and their side effects would be lost.
  Spelled spellRead(const facts::Read& r, const std::string& tmpl, const std::string& g,
                    bool pointer) const;
  // The value the pack's templates give `r` from `g` (spellTemplate, then spellRead).
  Spelled valueFrom(const facts::Read& r, const std::string& g, bool pointer) const;
  // The value of `r` from the env object `env` (rewrite.env, a pointer when `pointer`): the
  // env's method for the read's group and value (`env.tensor_parallel_size()`), else the
  // value the pack's templates derive from the group's method (`env.tp_group()->rank()`).
  Spelled valueFromEnv(const facts::Read& r, const std::string& env, bool pointer) const;

 private:
  std::set<size_t> functionLevel_;
  std::map<std::string, std::vector<const facts::FunctionFact*>> byName_;
  std::optional<Supplies> supplies_;
};

// "file:line:col" of a read.
std::string at(const facts::Read& r);
// `s` as the inside of a C++ string literal.
std::string escapeString(const std::string& s);
// `s` without spaces, to compare type spellings.
std::string noSpaces(const std::string& s);
// The value `tmpl` spells from group expression `g`: every `{g}` replaced, and `{g}->` written
// `g.` when the group is a reference or a value.
std::string spell(const std::string& tmpl, const std::string& g, bool pointer);

}  // namespace gridlock::rewrite::cpp
