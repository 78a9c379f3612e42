// Python's scopes for one file, as CPython's symtable builds them: the module, each function,
// lambda, class body and comprehension, what each binds (imports, assignments, parameters,
// loop and `with` targets, ...), and its `global` and `nonlocal` names. A name is looked up
// the way Python does: the scope itself when it binds the name (anywhere in it), then the
// enclosing functions (class bodies skipped), then the module, else a builtin.
#pragma once

#include "python/flat_tree.h"
#include "python/module_facts.h"
#include "python/syntax_tree.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gridlock::python {

struct LocalBinding {
  enum class Kind {
    Alias,   // `x = a.b` (or getattr(a, "b")): `value` is the chain, looked up in this scope
    Import,  // `import a.b as x`, `from .a import x`: `import` is the module's path
    Param,   // a parameter (`param` its index in the function's params)
    Other,   // any other binding: a local value that is no global
  };
  Kind kind = Kind::Other;
  // Alias: the chain; Other: the value assigned, for a plain `name = value` (null for other
  // bindings: a loop target, an import, a def, ...).
  Node value{};
  Path import;
  int param = -1;
  // Other: bound by unpacking a call's result (`a, b = f(x)`): the call, and which element.
  Node unpacked{};
  int element = -1;
};

struct Scope {
  enum class Kind { Module, Function, Class, Lambda, Comprehension };
  Kind kind = Kind::Module;
  Scope* parent = nullptr;
  std::unordered_map<std::string, std::vector<LocalBinding>> bindings;
  std::set<std::string> globals, nonlocals;
  int function = -1;    // Function and Lambda scopes of a def: ModuleFacts::functions index
  int classIndex = -1;  // Class scopes: ModuleFacts::classes index
};

class ScopeTable {
 public:
  // Binds every scope of `tree`, and fills `out`'s bindings, star imports, functions and
  // classes (their bases are left to the extraction, which resolves names).
  ScopeTable(const SyntaxTree& tree, ModuleFacts& out);

  Scope* module() const { return scopes_.front().get(); }
  // The scope a def, lambda, class or comprehension node opens (null for other nodes).
  Scope* opened(Node n) const;
  // The scope that binds `name` as seen from `from`, or null (a builtin, or a name only a
  // star import may bind, both of the module's namespace).
  Scope* lookup(Scope* from, const std::string& name) const;

 private:
  friend class Binder;
  std::vector<std::unique_ptr<Scope>> scopes_;
  std::unordered_map<uint32_t, Scope*> opened_;  // by Node::id
};

// `import a.b` binds `a`; `import a.b as c` binds c to a.b; `from ..m import x` binds x to
// {level 2, m.x}. The bound names and what each names, for an import statement node.
// `names`, when given, gets each binding's imported name as written (the dotted name's node).
std::vector<std::pair<std::string, Path>> importBindings(const SyntaxTree& tree, Node stmt,
                                                         std::vector<Node>* names = nullptr);
// The module a `from M import *` statement names.
Path starImportOf(const SyntaxTree& tree, Node stmt);

}  // namespace gridlock::python
