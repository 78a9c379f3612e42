// The whole program's names: every scanned module by its dotted name, and what a reference
// of one module names across all of them. A name is followed through imports (absolute and
// relative), aliases (`ps = parallel_state`), re-exports (a package's `__init__` binding a
// submodule or another module's name: `mpu = parallel_state`), submodules and star imports,
// to where it is defined: `megatron.core.parallel_state.get_tensor_model_parallel_group`.
// Names no scanned module defines (torch, the standard library) stay as written, absolute.
#pragma once

#include "python/module_facts.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gridlock::python {

// The dotted module name of a root-relative .py path: relative to `packageRoot` (a
// root-relative directory, "" for the root itself) when the file lies under it, else to the
// root. `__init__.py` names its package: "megatron/core/__init__.py" -> "megatron.core".
std::string moduleName(const std::string& file, const std::string& packageRoot);

class ModuleIndex {
 public:
  // `modules` must outlive the index. `named`: the names of files outside the tree's package
  // layout (a downstream checkout's: python/downstream.h), by file.
  ModuleIndex(const std::vector<ModuleFacts>& modules, const std::string& packageRoot,
              const std::map<std::string, std::string>& named = {});

  const std::string& nameOf(size_t module) const { return names_[module]; }
  // The module with this dotted name, or nothing.
  std::optional<size_t> find(const std::string& dotted) const;
  // Whether a scanned module is `dotted` or lies under it (`megatron` holds megatron.bridge.x,
  // a namespace package without an __init__.py of its own).
  bool holds(const std::string& dotted) const { return prefixes_.count(dotted) > 0; }

  // What `path`, seen from `module`, may name: dotted names, each once, in the order the
  // bindings give them. Empty for a builtin (a module-level name nothing binds).
  std::vector<std::string> resolve(size_t module, const Path& path) const;

  // The binding a canonical name is the definition of (a module's def, class or value), or
  // null when it names no module-level definition of a scanned module.
  const Binding* definition(const std::string& dotted) const;

 private:
  using Names = std::vector<std::string>;
  void canonical(const Names& names, Names& out, int depth) const;
  void member(size_t module, const std::string& name, const Names& rest, Names& out, int depth,
              bool fromOutside) const;
  std::optional<Names> absolute(size_t module, const Path& path) const;

  const std::vector<ModuleFacts>& modules_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, size_t> byName_;
  std::unordered_set<std::string> prefixes_;  // every module's name and the names above it
  // Per module, its bindings by name (indices into ModuleFacts::bindings).
  std::vector<std::unordered_map<std::string, std::vector<size_t>>> bindings_;
  // Every module an import of the program may load (ModuleFacts::loads), with its packages.
  std::unordered_set<std::string> loaded_;
};

}  // namespace gridlock::python
