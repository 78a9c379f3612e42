// What holds a group at a place in Python code: a parameter or a local of the enclosing def
// bound before the place, else an attribute of `self` that the class's `__init__` always sets.
// Python declares no types, so the pack's names say what a value holds (rewrite.python:
// `tp_group` a group, `pg_collection` a collection of them); a name that may still be None
// there (a parameter defaulting to None that nothing checks first) holds nothing.
#pragma once

#include "rewrite/python/lineage.h"
#include "rewrite/python/python_source.h"
#include "rules/rule_pack.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// The expression for the first of `names` that holds a value at `at` in `def`: a local or
// parameter, else `self.<name>` or `self._<name>` (every local before any attribute), set by
// the class's `__init__` or, with `lineage`, by a base's that it always runs.
std::optional<std::string> valueNamed(const PySource& src, TSNode def, TSNode at,
                                      const std::vector<std::string>& names,
                                      const Lineage* lineage = nullptr);

// The group `group` at `at` in `def` (a name for it, or a collection's attribute:
// `pg_collection.tp`), or with `group` empty the collection itself. A collection `def` builds
// holds nothing yet, and one whose attribute for `group` the pack does not name is no source.
std::optional<std::string> groupAt(const PySource& src, TSNode def, TSNode at,
                                   const std::string& group, const rules::PythonRewriteRule& rule,
                                   const Lineage* lineage = nullptr);

// The first of the pack's collection names that `def` builds, whose attributes are not what
// they will hold (`c.tp = ...`, or `c = Collection()`: a fresh object from a call without
// arguments), or "" when it builds none.
std::string builtIn(const PySource& src, TSNode def, const rules::PythonRewriteRule& rule);

// The collection's attribute that holds `group`: the pack's `attributes` map when it has one
// (nothing when it leaves `group` out), else the group's name.
std::optional<std::string> attributeFor(const rules::PythonRewriteRule& rule,
                                        const std::string& group);

// The collection's attribute an accessor call's keyword arguments name (rewrite.python.
// keyword_attributes: `get_data_parallel_group(with_context_parallel=True)` ->
// `dp_cp_gtp_remat`), "" for a call that passes only keywords the pack drops (it means what a
// call without arguments means), or nothing when the pack maps its arguments to no attribute.
std::optional<std::string> keywordAttribute(const facts::Read& r,
                                            const rules::PythonRewriteRule& rule);

// What holds a read's value, in the pack's own words, for a reason given to a user: "the tp
// group", "a collection" (what a shim gives), "the value of pkg.tp_shard.num_kv_heads" (module
// state), never a group with no name.
std::string heldValue(const facts::Read& r);

// Why a call of an accessor with arguments has no spelling, in the words of the pack's own keys
// (no collection or keyword_attributes for a pack that names neither).
std::string argumentsUnspelled(const facts::Read& r, const rules::PythonRewriteRule& rule);

// A read's replacement from the value `g` that holds its group: `g` itself for a group or a
// collection, the pack's `spell` template for a size or rank ("" when it has none).
std::string spelled(const rules::PythonRewriteRule& rule, facts::Yields yields,
                    const std::string& g);

// The function a `spell` template for `yields` calls (`torch.distributed.get_global_rank` of
// `torch.distributed.get_global_rank({g}, 0)`) when `src` does not reach it as written through
// a module-level import of its module (`import torch.distributed`; `import torch` alone does
// not: pyright finds no attribute `distributed` of torch until the submodule is imported), else
// "": a template that starts with the group (`{g}.size()`) calls nothing of a module.
std::string unreachedSpelling(const PySource& src, const rules::PythonRewriteRule& rule,
                              facts::Yields yields);

// The module to import so that `src` reaches an unreached `spell` function as the template
// writes it: `torch.distributed` where the file has `import torch` (it binds the package, so
// the new `import torch.distributed` binds no new name, only loads what the template calls);
// "" where the package is not imported straight either.
std::string spellingImport(const PySource& src, const rules::PythonRewriteRule& rule,
                           facts::Yields yields);

// The function a `spell` template for `yields` calls where `src` reaches it neither as written
// nor through spellingImport's import (`import torch as t` alone), else "": what leaves such a
// read `no_spelling`.
std::string unspellableIn(const PySource& src, const rules::PythonRewriteRule& rule,
                          facts::Yields yields);

// The methods the pack's `spell` templates call on a group (`size` of `{g}.size()`).
std::set<std::string> groupMethods(const rules::PythonRewriteRule& rule);

// The name the pack gives `group` (`{group}_group` -> `tp_group`).
std::string groupName(const rules::PythonRewriteRule& rule, const std::string& group);

// Whether `name` (a parameter of `def`) is checked for None before `at`: `if name is None:`
// (or `if not name:`) in a block around `at`, or `name = name or ...`.
bool checkedBefore(const PySource& src, TSNode def, TSNode at, const std::string& name);

// The last `self.<name> = value` among `__init__`'s own statements (not under a condition):
// the value, or a null node; `*statement` is that assignment's statement. The last is what the
// object holds (`self.g = g`, then `self.g = resolve(self.g)`).
TSNode setInInit(const PySource& src, TSNode init, const std::string& name, TSNode* statement);

// Whether `n` is `self.<name>` itself.
bool isSelfAttribute(const PySource& src, TSNode n, const std::string& name);

// Whether `self.<name>` is spelled in `n` or under it.
bool spellsSelf(const PySource& src, TSNode n, const std::string& name);

// The assignment a statement is (`x = ...`, one target), or a null node.
TSNode assignmentOf(TSNode statement);

// Every statement under `n` (not inside a nested def, class or lambda), in source order.
void statementsUnder(TSNode n, const std::function<void(TSNode)>& f);

// Whether `def` is a method called on an instance (its first parameter `self`).
bool isInstanceMethod(const PySource& src, TSNode def);

}  // namespace gridlock::rewrite::py
