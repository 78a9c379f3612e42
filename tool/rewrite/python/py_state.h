// What the Python strategies of one plan share, over the core's PlanState (the facts, the
// verdicts, edits and tallies so far): the files, the classes' lineage, and what a strategy
// leaves for later ones. Internal to tool/rewrite/python.
#pragma once

#include "rewrite/core/plan_state.h"
#include "rewrite/python/lineage.h"
#include "rewrite/python/plan.h"
#include "rewrite/python/python_source.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace gridlock::rewrite::py {

class EdgeSupply;

class PyState : public PlanState {
  std::unique_ptr<Sources> owned_;  // the files it reads

 public:
  static constexpr facts::Language kLanguage = facts::Language::Python;
  // The files read through `sources`; `held`: null when no file is held back.
  PyState(const index::Inventory& inv, const rules::RuleSet& rules,
          std::unique_ptr<Sources> sources, const HeldFiles* held);
  ~PyState() override;

  Sources& sources;
  Lineage lineage;                 // the classes a method's `self` takes attributes from
  PyExtras extras;                 // what the finish and the checks read besides the plan
  std::set<std::string> unhinted;  // files whose edits write no type hint
  // The parameters Thread gave: (file, the def's first byte) -> group ("" for a collection) ->
  // what holds it in that def (`tp_group`; `ctx.tp_group` in backward), for Supply after it.
  std::map<std::pair<std::string, unsigned>, std::map<std::string, std::string>> threaded;
  // Files -> the imports their new text needs, added once each when the plan is done
  // (rewrite/python/edge_global.h): (module, name) for `from module import name` (the globals edge
  // calls now pass, a collapse's shim), (module, "") for `import module` (a spelling's module).
  std::map<std::string, std::set<std::pair<std::string, std::string>>> edgeImports;
  // Reads left because their def cannot take a parameter (Thread refused its graph, or no
  // collection is in scope for a call with arguments): what Collapse may take.
  std::set<size_t> unthreaded;
  // Laundered calls -> why none could be given the group ("" when one was), by
  // "file:line:col": LaunderedCalls writes them, Require and ThreadCalls read them.
  std::map<std::string, std::string> supplied;
  // A local's read -> the read it was assigned from (Substitute), for LocalAliases.
  std::map<size_t, size_t> aliases;
  // The edge calls of fallbacks (LaunderedCalls plans them, EdgeCalls writes them).
  std::unique_ptr<EdgeSupply> edgeSupply;

  // Text written into `file` spells a `yields` value with the pack's template: the import it
  // needs there (`import torch.distributed` where the file imports torch alone) is added.
  void spelledIn(const std::string& file, const rules::PythonRewriteRule& rule,
                 facts::Yields yields);
  // The plan adds `import torch.distributed` to `file`: its group methods on any receiver are
  // hints for the checker (GroupHint), once per file.
  void importedGroups(const std::string& file, const rules::PythonRewriteRule& rule);
  using PlanState::edit;
  void edit(const std::string& file, unsigned offset, unsigned length, std::string text,
            facts::Strategy strategy, const std::string& why);
  // Why the plan may not edit `file`, or "": a subset run edits only the files its paths
  // select (index::Inventory::subset), though it decides on every file.
  std::string closed(const std::string& file) const;

  // The pack's rewrite.python for a read (a laundered one: its helper's global's), or null.
  const rules::PythonRewriteRule* rule(const facts::Read& r) const;

  // Where a read is in its file: the file, the node its bytes are, the def around it.
  struct Place {
    const PySource* src = nullptr;
    TSNode node{};
    TSNode def{};
  };
  std::optional<Place> place(const std::string& file, unsigned offset, unsigned length);
  std::optional<Place> place(const facts::Read& r) { return place(r.file, r.offset, r.length); }
  // The byte offset of a 1-based line and column.
  std::optional<unsigned> offsetOf(const std::string& file, unsigned line, unsigned column);
};

// "file:line:col" of a read.
std::string at(const facts::Read& r);
// The name a message gives a function: its class for `__init__`, `Class.method` for another
// method, else its own name.
std::string messageName(const facts::Read& r);

}  // namespace gridlock::rewrite::py
