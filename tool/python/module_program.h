// Functions, classes and call sites of Python modules as facts (FunctionFact, ClassFact,
// SiteFact), for `callers` and laundering: each call or construction bound to the function it
// reaches across modules, and each parameter of that function bound as Python binds it
// (positionally, by keyword, left to its default, None, or forwarded from the caller's own
// parameter, `*args` or `**kwargs`). Constructions reach `__init__` of the class or of its
// nearest base that has one; `self.m(...)` the method of the enclosing class or its bases;
// `super().m(...)` a base's; `functools.partial(f, ...)` binds f's parameters it is given
// (those it leaves to later calls, which are not followed, count as left to their defaults).
#pragma once

#include "facts/facts.h"
#include "python/module_index.h"

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gridlock::python {

class Definitions {
 public:
  struct Item {
    size_t module = 0;
    size_t index = 0;  // into the module's functions or classes
  };
  Definitions(const ModuleIndex& index, const std::vector<ModuleFacts>& modules);

  std::optional<Item> function(const std::string& dotted) const;
  std::optional<Item> cls(const std::string& dotted) const;
  // What each base of a class names among the scanned classes.
  std::vector<Item> bases(Item cls) const;
  // The scanned classes below the class (deriving from it at any depth), in module order.
  std::vector<Item> below(Item cls) const;
  // The method `name` of the class, else of its nearest base (depth first, in order).
  std::optional<Item> method(Item cls, const std::string& name) const;
  // The scanned classes that `types` (Paths of `module`, as an annotation gives them) name.
  std::vector<Item> classes(size_t module, const std::vector<Path>& types) const;
  // What attribute `name` of an instance of the class holds, as the nearest class that binds
  // it in its body says (itself, else its bases depth first): the classes of that class's
  // annotation of it. Nothing when that binding has no annotation or is a method.
  std::vector<Item> fieldClasses(Item cls, const std::string& name) const;

  const ModuleIndex& index() const { return index_; }
  const std::vector<ModuleFacts>& modules() const { return modules_; }

  // The scanned class or function `dotted` names, as a USR, or "".
  std::string definitionUsr(const std::string& dotted) const;
  // Whether the function returns a scanned class or function (a return names one): its
  // calls' results are values that `callers` follows or names (python/module_values.h).
  bool returnsDefinitions(Item fn) const {
    return returnsDefinitions_.count({fn.module, fn.index});
  }
  // Whether some module binds `name` at module level to a display or a call's result
  // (Binding::holds): a reference to it from another module hands that on.
  bool holdsName(const std::string& name) const { return holdsNames_.count(name) > 0; }

 private:
  std::optional<Item> method(Item cls, const std::string& name, int depth) const;
  bool derives(Item cls, Item base, int depth) const;
  // Nothing when neither the class nor a base binds it.
  std::optional<std::vector<Item>> fieldClasses(Item cls, const std::string& name, int depth) const;

  const ModuleIndex& index_;
  const std::vector<ModuleFacts>& modules_;
  std::unordered_map<std::string, Item> functions_, classes_;
  std::set<std::pair<size_t, size_t>> returnsDefinitions_;
  std::unordered_set<std::string> holdsNames_;
};

// The functions, classes and sites of `module` into `out`.
void collectProgram(const Definitions& defs, size_t module, facts::TuFacts& out);

}  // namespace gridlock::python
