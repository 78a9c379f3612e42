// Where the Python files a plan scans name a function or class, for Thread: a function that
// gains a parameter must be reached by calls only (a reference passed elsewhere, `f` as a
// callback, would call it without the group), and an autograd Function's forward is reached
// through `Cls.apply(...)`, which the facts do not resolve.
#pragma once

#include "rewrite/python/sources.h"
#include "rules/rule_pack.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::rewrite::py {

struct NameUse {
  std::string file;
  const PySource* src = nullptr;
  TSNode node{};  // the identifier
  TSNode call{};  // the call whose callee it is (`f(...)`, `m.f(...)`, `C.apply(...)`), or null
};

// Every identifier `name` in `files`, but a def's or class's own name and the names of import
// statements.
std::vector<NameUse> usesOf(Sources& sources, const std::set<std::string>& files,
                            const std::string& name);

// Whether `use` may name the module-level definition in `definedIn` of its name: an attribute's
// name (`m.X`) may; a bare name does not when a def around it binds the name as its own local
// (a parameter, an assignment, loop, `with`/`except` target or walrus, a nested def or class,
// `del`; `nonlocal`), nor, in another file, when that file has no import that may bind it (its
// own global of that name, or nothing). `global X`, or an import in the def, may. Megatron-LM's
// `broadcast_list = [None]` in a method of another module is not the function.
bool refersToModuleLevel(const NameUse& use, const std::string& definedIn);

// Whether a def (or lambda) around `at` binds `name` as its own local, so that `name` written
// there is not the module's (as refersToModuleLevel decides it for a bare name).
bool boundLocally(const PySource& src, TSNode at, std::string_view name);

// A module-level definition (or a method, `member`) as name resolution sees it: its file, its
// name, and the names of the tree's packages and modules (treeNames).
struct Definition {
  std::string file, name;
  bool member = false;
  const std::set<std::string, std::less<>>* tree = nullptr;
};
// Every directory and module name of `files`' dotted paths.
std::set<std::string, std::less<>> treeNames(const std::set<std::string>& files);
// Every identifier `name` in `files` (usesOf), and every identifier an import binds to a name
// spelled so (`g` of `from m import name as g`).
std::vector<NameUse> namingsOf(Sources& sources, const std::set<std::string>& files,
                               const std::string& name);
// Whether `use` (of namingsOf) names `def`, as Python resolves it from what the file sees: as
// refersToModuleLevel says, and more narrowly (without `def.tree`, exactly as it): an attribute
// assigned or deleted (`self.f = ...`) names nothing; a module's function is an attribute only
// of a module (not of a local, a parameter such as `self`, or a module outside the tree:
// `mup.f`); in another file a name is it only where an import binds it to a name of the tree
// spelled as it (`from m import f`, `from m import f as g`, `from m import *`), never where
// the import is of another name or from a module outside the tree (`from mup import
// coord_check as mup_coord_check` binds neither `coord_check` nor a definition of the tree).
bool refersTo(const NameUse& use, const Definition& def);
// The call a use of a class is the object of: `C.apply(...)`, or a null node.
TSNode applyCall(const NameUse& use);

// Where `def` (a function, or a class's `__init__`) is named as a value in `files`, so that it
// may be called, or its class built, where the scan binds no call ("file:line"), or "". A use
// as a callee is a call the scan sees; for a class, so are the uses that build nothing: a base
// in `class X(C)`, `isinstance`/`issubclass`'s class, an annotation, `super(C, self)`, and the
// object of an attribute (`C.method(...)`, `C.apply(...)`). Nor do names that are not values:
// a target a statement binds or unbinds (`C = None`, `for C in`, `with ... as C`, `del C`,
// `global C`, a parameter), a keyword's name (`f(C=1)`), an attribute's name whose object is
// not reached through an imported name (`config.C`; `specs.C` counts). A class that derives from it
// without an `__init__` of its own (in the same files) runs its `__init__`, so its name counts
// too. A class whose method builds it (`cls(...)`, `type(self)(...)`, `self.__class__(...)`)
// is built with arguments the scan does not follow: that method's place is the answer.
// With the pack's spec model (`specs`), a use of a class's name where the model puts it
// (specs.h's specPlacement) is no answer either: it is added to `placed`, and `names` gets the
// class's name and those of the subclasses counted with it, for specConstructions.
std::string namedAsValue(Sources& sources, const std::set<std::string>& files,
                         const std::string& file, const PySource& src, TSNode def,
                         const rules::PythonSpecRule* specs = nullptr,
                         std::vector<NameUse>* placed = nullptr,
                         std::vector<std::string>* names = nullptr);

}  // namespace gridlock::rewrite::py
