// What one Python file says, as far as the file alone can tell: the names its module scope
// binds (for other modules' imports), every dotted reference whose root is an import, an alias
// or a module-level name (with where it stands: the enclosing function, a guard), and its
// functions, classes and calls. No rule pack and no other file is needed to make it, so it
// can be made in parallel and cached by the file's bytes; resolve.h turns the facts of every
// file together into reads.
#pragma once

#include "facts/kinds.h"

#include <string>
#include <vector>

namespace gridlock::python {

// Where a dotted name starts, flattened through the file's own aliases: a name of the module
// scope (`global`), or a module an import names (`level` leading dots of a relative import).
// `names` is the root and then the attributes: `ps.get_tp` with `ps` a module-level name is
// {global, {"ps", "get_tp"}}; in a function that runs `from ..x import y`, `y.z` is
// {import, level 2, {"x", "y", "z"}}.
struct Path {
  bool global = true;
  unsigned level = 0;
  std::vector<std::string> names;
  // A reference's target reached through a local name an assignment bound (`x = a.b` in a
  // function): the root stands for the value a.b had there. Module state it names was read
  // (copied) at that assignment, not where the local is used.
  bool copy = false;
  bool operator==(const Path&) const = default;
};

// Where a value is handed on (python/value_uses.h): how a class or function, or a call's
// result, leaves the scan's sight.
enum class Handed {
  Argument,
  Stored,
  Element,
  Returned,
  Yielded,
  Default,
  Lambda,
  Decorator,
  Other
};

// A place a value is handed on: 1-based line and column, and how.
struct HandedOn {
  unsigned line = 0, column = 0;
  Handed how = Handed::Other;
  bool operator==(const HandedOn&) const = default;
};

// A name of the module scope. An alias (an import, or an assignment of a dotted name) says
// what it names; a def, a class or another value names itself.
struct Binding {
  enum class Kind { Alias, Def, Class, Value };
  std::string name;
  Kind kind = Kind::Value;
  Path target;  // Alias only
  unsigned line = 0;
  // Value: assigned under `global` in a function of the module (a setter's state).
  bool setByFunction = false;
  // Alias: bound by an assignment (`x = a.b`), not an import: x holds a.b's value as it was
  // when the module ran the assignment.
  bool assigned = false;
  // Value: what the file follows it to hold (python/value_uses.h): a display (`LAYERS =
  // {"col": Col}`: the Element refs whose `container` is this name), or the result of calling
  // `resultOf` (`Linear = get_linear("col")`; `element` of a returned tuple, -1 the whole
  // value). Another module that names it hands that on.
  enum class Holds { Nothing, Display, Result };
  Holds holds = Holds::Nothing;
  std::vector<Path> resultOf;
  int element = -1;
};

// How a reference that names a value without calling it uses it, for `callers`: a class or
// function handed on where the scan does not follow it may be called there, unseen.
enum class ValueUse {
  None,      // no value handed on: called, an alias's value, written, a base, an annotation, a
             // test (isinstance, issubclass, a comparison), the class given to super(), getattr...
  Escapes,   // handed on where the scan does not follow it: Ref::handed says how
  Returned,  // a return's value, or element `Ref::element` of a returned tuple: followed where
             // a call's result is bound to a name that is only called (Call::results)
  Element,   // an element of a display bound to a name (`LAYERS = [Col, Row]`), followed where
             // that name is subscripted and called; Ref::handedOn lists where it is not
};

// How a reference uses what it names.
enum class Access {
  Read,   // loaded: called, passed on, compared, ...
  Write,  // assigned, augmented, deleted, or an attribute or item of it assigned
};

// One reference: a name or attribute chain in code (never in a comment or a string's text),
// `getattr(x, "name")` with a literal name, or `globals()["name"]`.
struct Ref {
  std::vector<Path> targets;  // what it may name: one per binding its root may have
  // Each name of the chain as written, the root first: where it starts (1-based line and
  // column in bytes), so a read can stop at the prefix a rule names. A target's names end
  // with the written names after the root (its alias expanded, the root may be several).
  struct Part {
    unsigned line = 0, column = 0;
  };
  std::vector<Part> parts;
  Access access = Access::Read;
  // The expression the read is, for edits and reports: the call when the chain is called,
  // else the chain itself. Offsets in bytes, lines and columns 1-based.
  unsigned offset = 0, length = 0;
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
  bool called = false;
  // The value of an alias (`get = ps.get_x`, outside a class body): the alias's own uses are
  // where a function it names is read; a variable it names is read here, once.
  bool aliasDefinition = false;
  std::vector<std::string> arguments;  // a call's arguments as written
  int function = -1;    // the enclosing function (index into ModuleFacts::functions), -1: none
  int classIndex = -1;  // the enclosing class (into ModuleFacts::classes), -1: none
  bool inLambda = false;
  // The values whose absence the read runs under (python/guards.h), innermost first: each
  // may make it a fallback, which the whole program decides (module_reads.h).
  struct Guard {
    std::string holder;    // a name or a chain (`self.tp_group`)
    int holderParam = -1;  // the enclosing function's parameter the holder is, -1 when none
    unsigned at = 0;       // the testing construct's first byte
    bool presence = false;
    bool flows = false;
    std::vector<std::string> others;  // a disjunction's other missing values
  };
  std::vector<Guard> guards;
  // The tests on the enclosing function's parameters the read runs under, the guards' own
  // included (a parameter the function also binds otherwise is tested on its new value: none).
  struct Test {
    int param = -1;
    facts::Expect expect = facts::Expect::NotNone;
  };
  std::vector<Test> tests;
  unsigned statementLine = 0;  // the first line of the statement holding it (suppressions)
  // A value named, not called (python/value_uses.h).
  ValueUse use = ValueUse::None;
  Handed handed = Handed::Other;   // Escapes: how
  int element = -1;                // Returned: the element of a returned tuple, -1 the value
  std::string container;           // Element: the module-level name bound to the display
  std::vector<HandedOn> handedOn;  // Element: where the display is handed on unfollowed
};

// A parameter as declared: `*args` and `**kwargs` keep their stars in `name`.
struct Param {
  std::string name;
  std::string annotation;
  // The classes its annotation may name, where the def is: `T`, `a.T`, `"T"`, each member of
  // `Optional[...]`, `Union[...]` and `A | B` (None and what no name spells, like `List[T]`,
  // left out).
  std::vector<Path> types;
  bool hasDefault = false;
  std::string defaultText;
  enum class Kind { Positional, PositionalOnly, KeywordOnly, VarArgs, VarKeywords };
  Kind kind = Kind::Positional;
};

struct Function {
  std::string qualname;   // within the module: "Class.method", "outer.inner"
  int classIndex = -1;    // the class it is a method of, -1 when none
  bool isStatic = false;  // @staticmethod: no implicit first parameter
  bool isClassMethod = false;
  std::vector<Param> params;  // as declared, the implicit self or cls included
  unsigned line = 0;
};

struct Class {
  std::string qualname;
  std::vector<std::vector<Path>> bases;  // per base, what it may name
  unsigned line = 0;
  // A name its body binds by an assignment (`name: T = v`, `name: T`, `name = v`), in source
  // order: with an annotation, the classes it may name (Param::types); a dataclass field is one.
  struct Field {
    std::string name;
    bool annotated = false;
    std::vector<Path> types;
  };
  std::vector<Field> fields;
  // Where it is given to a decorator that may keep it or build something else in its place
  // (Handed::Decorator): calls from there are not seen.
  std::vector<HandedOn> decorated;
};

// One call or construction: what the callee expression may name, and its arguments.
struct Call {
  std::vector<Path> callee;  // empty: `super().name(...)` or `self.name(...)`, see `member`
  // `cls(...)` in a classmethod, `type(self)(...)`, `self.__class__(...)`: the enclosing class
  // or a class below it is built, so the call reaches each __init__ those classes run.
  bool ownClass = false;
  // `self.m(...)` or `cls.m(...)` in a method: "m", resolved through the method's class;
  // `super().m(...)`: "m" with `viaSuper`.
  std::string member;
  bool viaSuper = false;
  // `p.f.g.m(...)`, p a parameter of the enclosing def that nothing else binds there (self
  // included): p's index, the attributes read on the way (one or more, each typed by the
  // annotation of a class-level field of the class before it), and "m" in `member`.
  int receiverParam = -1;
  std::vector<std::string> fields;
  // A key a `**` dict is seen to hold, and what its value is.
  struct DictKey {
    std::string name;
    bool isNone = false;        // the literal None
    std::string forwardedName;  // the value is a bare name: which (a parameter forwards)
  };
  struct Arg {
    std::string keyword;  // "" positional
    enum class Kind { Plain, Star, DoubleStar } kind = Kind::Plain;
    bool isNone = false;        // the literal None
    std::string forwardedName;  // the argument is a bare name: which (a parameter forwards)
    unsigned offset = 0, length = 0;
    // `**d` with d built in sight (`{"k": v}`, `dict(k=v)`, `d["k"] = v` in the same function,
    // python/dict_keys.h): the keys it is seen to hold; `keysComplete` when it can hold no
    // other (built whole there, changed only by such keys).
    std::vector<DictKey> keys;
    bool keysComplete = false;
  };
  std::vector<Arg> args;
  // What the first argument may name when it is a chain: with `functools.partial(f, ...)` as
  // the callee, f is what is called, later, with the other arguments bound.
  std::vector<Path> firstArg;
  // The callee is a name bound to a call's result (`Linear = get_linear(kind)`, `A, B =
  // get_pair(args)`): what it may reach is what that function returns there.
  struct Result {
    std::vector<Path> function;  // what the call that bound the name may call
    int element = -1;            // of a returned tuple; -1 the value itself
  };
  std::vector<Result> results;
  // The callee is an item of what these name (`LAYERS[kind](x)` with LAYERS another module's
  // display): what that display holds.
  std::vector<Path> itemOf;
  // Where this call's result is handed on unfollowed: here, when it is neither bound to names
  // nor discarded; where a name bound to it is used other than called. None when followed.
  std::vector<HandedOn> resultHandedOn;
  int function = -1;
  unsigned line = 0, column = 0;
  unsigned rparen = 0;
};

// A `# gridlock: allow(...)` comment (docs/suppressions.md), as frontend/suppressions.h reads it.
struct AllowText {
  unsigned line = 0, column = 0;  // column: 1-based, of its `#`
  bool alone = false;             // nothing but blanks before it on its line
  std::string text;               // from its `#`
};

struct ModuleFacts {
  std::string file;                 // root-relative path
  bool isPackage = false;           // an __init__.py
  std::string digest;               // MD5 of the bytes it was made from
  std::vector<std::string> errors;  // syntax errors (syntax_tree.h); empty when it parses
  // tree-sitter's errors in a file CPython's parser accepts (cpython_check.h): no parse
  // error, but lines its tree does not hold.
  std::vector<std::string> unread;
  // Then what CPython's parse finds there: each dotted name whose root the scope sees from
  // outside and that no reference of tree-sitter's tree starts at, as a reference to the
  // module-level name it starts with (no guard known). The whole program resolves them: one
  // that names a rule is a read the scan would miss, an error (module_reads.h).
  std::vector<Ref> unreadRefs;
  std::vector<Binding> bindings;  // of the module scope, in source order
  std::vector<Path> starImports;  // `from m import *` at module level: names m may bind
  // Each module an import anywhere in the file may load, as written (`import a.b.c`: a.b.c, so
  // a and a.b too; `from .x import y`: .x.y, which loads .x, and .x.y where it is a module):
  // loading a submodule sets it on its package (ModuleIndex).
  std::vector<Path> loads;
  std::vector<Ref> refs;
  // Each name a `from m import x [as y]` imports (a function's own imports too): a reference
  // to m.x where `x` is written, as the value of an alias (Ref::aliasDefinition). Module state
  // imported so is read there, once (the import copies it); an accessor is read where called.
  std::vector<Ref> imports;
  std::vector<Function> functions;
  std::vector<Class> classes;
  std::vector<Call> calls;
  std::vector<AllowText> allows;  // comments that mention `gridlock:`
};

}  // namespace gridlock::python
