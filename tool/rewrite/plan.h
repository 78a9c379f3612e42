// Rewrite plans (issue 5, docs/rewrite.md): for every read of an inventory, either edits that
// remove it (Substitute, Require) or the reason it is left alone. Works on facts only; the
// edits are byte ranges of the scanned files, applied by rewrite/edits.h.
#pragma once

#include "index/inventory.h"
#include "rules/rule_set.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite {

// Replace `length` bytes at `offset` of `file` (root-relative) with `text`.
struct Edit {
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
  std::string why;  // "file:line:col substitute" for reports and conflicts
};

// An #include the edits of a file need ("gridlock/require.h" or <...>).
struct Include {
  std::string file;
  std::string header;
};

struct Plan {
  // Every read of the inventory with `fix` set to the plan's verdict: substitute, require or
  // collapse (edits below remove it), none (edge, suppressed), thread (a parameter added to the
  // function and its callers, edits below; without thread facts: needed, not done), or a
  // reason it cannot be rewritten: no_source, open_call_graph, public_api, macro,
  // function_pointer, virtual_dispatch, lambda, default_argument, initializer, name_clash,
  // open_fallback, eager_fallback, no_spelling, compile_error.
  // `fixDetail` says more.
  std::vector<facts::Read> reads;
  std::vector<Edit> edits;
  std::vector<Include> includes;
  size_t substituted = 0;
  size_t required = 0;
  size_t supplied = 0;           // call sites given the group they hold (fallbacks, laundered)
  size_t threaded = 0;           // reads replaced by a threaded parameter
  size_t threadedFunctions = 0;  // functions that got the parameter
  size_t collapsed = 0;          // reads replaced by a field of one collection lookup
  size_t collapsedFunctions = 0;
};

// What Thread needs beyond the inventory, gathered from every translation unit's facts:
// each declaration's parameter list, every direct call, functions whose address is taken.
struct ThreadFacts {
  std::map<std::string, std::vector<facts::ParamListFact>> lists;  // by USR, one per place
  std::map<std::string, std::vector<facts::CallFact>> calls;       // by callee USR, one per place
  std::set<std::string> addressTaken;
  std::map<std::string, std::string> skippedNames;  // see TuFacts::skippedNames
  std::map<std::string, std::vector<facts::DependentCallFact>> dependentCalls;  // by name
  void add(const std::vector<facts::TuFacts>& tus);
};

// Files whose rewritten translation unit did not compile, with the first error: no edit may
// land there; the reads and the Thread closures that would edit them are left as
// `compile_error` (the rewrite command plans again without them).
using HeldFiles = std::map<std::string, std::string>;

// Without thread facts, reads that need a parameter are left as `thread` (not done).
Plan plan(const index::Inventory& inv, const rules::RuleSet& rules,
          const ThreadFacts* thread = nullptr, const HeldFiles* held = nullptr);

// The value `tmpl` spells from group expression `g`: every `{g}` replaced, and `{g}->` written
// `g.` when the group is a reference or a value.
std::string spell(const std::string& tmpl, const std::string& g, bool pointer);

}  // namespace gridlock::rewrite
