// All loaded packs together, with the look-ups the frontend needs per declaration and file.
#pragma once

#include "rules/pack_lookup.h"
#include "rules/rule_pack.h"

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gridlock::rules {

enum class Placement { Out, In, Edge };

// A Python accessor or shim a dotted name resolved to: the rule's, or its family's for this
// member of it.
struct PythonAccessorMatch {
  std::string name;  // the dotted name read
  facts::ReadKind kind = facts::ReadKind::Accessor;
  std::string group;
  facts::Yields yields = facts::Yields::Group;
  size_t pack = 0;
  const PythonAccessorRule* rule = nullptr;
};

// What of one pack matched nothing in a scan (RuleSet::unmatched).
struct Unmatched {
  std::string pack;
  size_t entries = 0;              // its accessors, globals, types and scope include globs
  std::vector<std::string> lines;  // one message per entry that matched nothing
};

class RuleSet {
 public:
  RuleSet() = default;
  explicit RuleSet(std::vector<RulePack> packs);
  // Loads packs named by path or by name (rules/pack_lookup.h); `anchor` is where relative
  // paths start and, when it says so, where names are looked up first (a config's directory).
  static RuleSet load(const std::vector<std::string>& refs, const PackAnchor& anchor = {});

  const std::vector<RulePack>& packs() const { return packs_; }
  const AccessorRule* function(const std::string& qualifiedName) const;
  const AccessorRule* macro(const std::string& name) const;
  const GlobalRule* global(const std::string& qualifiedName) const;
  // The accessor rule named by a read: a function's, else a macro's.
  const AccessorRule* accessor(const std::string& name) const;
  // The rewrite keys of the pack that defines a read's accessor or global, or null.
  const RewriteRules* rewriteFor(const std::string& name) const;
  const TypeRule* type(const std::string& qualifiedName) const;
  // Whether a collection whose type is spelled `typeSpelling` (a parameter or local type, e.g.
  // "const gridlock::ProcessGroupCollection&") holds `group`: true unless its type rule lists
  // its groups without it.
  bool collectionHolds(const std::string& typeSpelling, const std::string& group) const;
  bool hasMacros() const { return !macros_.empty(); }

  // Python (docs/scan.md "Python"): the accessor a resolved dotted name is (a named rule
  // before a family), or nothing.
  std::optional<PythonAccessorMatch> pythonAccessor(const std::string& dotted) const;
  // The global-state rule of a module variable: one naming it, else one naming its module
  // when a function of the module assigns it under `global` (`setByFunction`).
  const PythonGlobalRule* pythonGlobal(const std::string& dotted, bool setByFunction) const;
  bool hasPython() const;
  // The setter a function's qualified (C++) or dotted (Python) name is, or null.
  const SetterRule* setter(const std::string& qualifiedName) const;
  const SetterRule* pythonSetter(const std::string& dotted) const;

  // Where a root-relative path stands for the rules of one pack; `underRoot` false means the
  // file lies outside --root, which no pack scans.
  Placement place(const std::string& relPath, bool underRoot, size_t pack) const;
  // In when some pack scans the file, else Edge when some pack has it as an edge.
  Placement placeAny(const std::string& relPath, bool underRoot) const;
  // In when some pack holding C++ read rules (accessors, macros or globals) scans the file: what
  // a compile database must cover. A pack of Python rules alone reads no C++ file.
  bool cxxPackScans(const std::string& relPath, bool underRoot) const;
  // In or Edge for at least one pack: the frontend looks inside such files.
  bool anyInterest(const std::string& relPath, bool underRoot) const;
  // Declared in a header some pack names as public API.
  bool isPublicHeader(const std::string& relPath) const;

  // How a rule is named in facts::TuFacts::rulesSeen: "function Q", "macro M", "variable Q",
  // "type Q".
  static std::string seenKey(const AccessorRule& rule);
  static std::string seenKey(const GlobalRule& rule);
  static std::string seenKey(const TypeRule& rule);
  static std::string seenKey(const SetterRule& rule);  // "setter function Q", "setter python N"
  // What matched nothing in a scan of `units` translation units: each pack entry whose key is
  // not in `seen`, and each scope include glob that no file in `files` (root-relative: the
  // units' main files and includes) matches, unless `inTree(root, glob)` says it matches a file
  // of the tree under `root` that no frontend reads (a directory holding docs alone: no mistake
  // of the pack); for each pack with any, one message per entry (accessors, globals, types,
  // include globs), e.g. "rule 'x::get_tp' (pack p) matched no declaration in 3 translation
  // units".
  using TreeMatch = bool (*)(const std::string& root, const std::string& glob);
  std::vector<Unmatched> unmatched(const std::set<std::string>& seen,
                                   const std::set<std::string>& files, size_t units,
                                   TreeMatch inTree = nullptr, const std::string& root = "") const;
  // The packs holding rules that name code (C++ accessors, macros or globals; Python accessors
  // or module state), when not one of those rules is in `seen`: a scan with these packs counts
  // no reads at all. Empty when some rule matched, or when no pack holds such rules (types
  // only). One pack of several matching nothing is a warning (unmatched), as a project may not
  // use every pack it names.
  std::vector<std::string> nothingMatched(const std::set<std::string>& seen) const;

 private:
  void indexPython(size_t pack);

  std::vector<RulePack> packs_;
  std::unordered_map<std::string, const AccessorRule*> functions_;
  std::unordered_map<std::string, const AccessorRule*> macros_;
  std::unordered_map<std::string, const GlobalRule*> globals_;
  std::unordered_map<std::string, const TypeRule*> types_;
  std::unordered_map<std::string, const PythonAccessorRule*> pythonAccessors_;
  std::vector<const PythonAccessorRule*> pythonFamilies_;
  std::unordered_map<std::string, const PythonGlobalRule*> pythonGlobals_;
  std::unordered_map<std::string, const PythonGlobalRule*> pythonModules_;
  std::unordered_map<std::string, const SetterRule*> setters_;
  std::unordered_map<std::string, const SetterRule*> pythonSetters_;
};

}  // namespace gridlock::rules
