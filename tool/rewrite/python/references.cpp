#include "rewrite/python/references.h"

#include "rewrite/python/specs.h"
#include "rewrite/python/ts_node.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;

using ts::walk;

// Whether `n` is an import statement or inside one.
bool inImport(TSNode n) {
  for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p))
    if (is<"import_statement">(p) || is<"import_from_statement">(p)) return true;
  return false;
}

// `f` in `def f` / `class f`.
bool definesIt(TSNode n) {
  TSNode p = ts_node_parent(n);
  return (is<"function_definition">(p) || is<"class_definition">(p)) &&
         ts::same(field<"name">(p), n);
}

// The call `n` is the callee of, directly (`f(...)`) or as the attribute (`m.f(...)`).
TSNode calleeOf(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"attribute">(p) && ts::same(field<"attribute">(p), n)) {
    n = p;
    p = ts_node_parent(p);
  }
  return is<"call">(p) && ts::same(field<"function">(p), n) ? p : TSNode{};
}

}  // namespace

std::vector<NameUse> usesOf(Sources& sources, const std::set<std::string>& files,
                            const std::string& name) {
  std::vector<NameUse> out;
  for (const std::string& file : files) {
    const PySource* src = sources.get(file);
    if (!src || src->text().find(name) == std::string::npos) continue;
    walk(src->root(), [&](TSNode n) {
      if (!is<"identifier">(n) || src->text(n) != name || definesIt(n) || inImport(n)) return;
      out.push_back({file, src, n, calleeOf(n)});
    });
  }
  return out;
}

TSNode applyCall(const NameUse& use) {
  TSNode p = ts_node_parent(use.node);
  if (!is<"attribute">(p) || !ts::same(field<"object">(p), use.node) ||
      use.src->text(field<"attribute">(p)) != "apply")
    return TSNode{};
  TSNode call = ts_node_parent(p);
  return is<"call">(call) && ts::same(field<"function">(call), p) ? call : TSNode{};
}

namespace {

// Whether `n` is an argument of a call of `isinstance`, `issubclass` or `super` (in a tuple
// of classes too).
bool classArgument(const PySource& src, TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"tuple">(p)) p = ts_node_parent(p);
  if (!is<"argument_list">(p)) return false;
  TSNode call = ts_node_parent(p);
  if (!is<"call">(call)) return false;
  std::string_view callee = src.text(field<"function">(call));
  return callee == "isinstance" || callee == "issubclass" || callee == "super";
}

// Whether `n` is a class handed where nothing builds it: an operand of a comparison (`spec.module
// is C`, `x in (A, B)`), the first argument of setattr, hasattr, delattr, a patcher's
// (`monkeypatch.setattr(C, ...)`, `mock.patch.object(C, ...)`) or `__new__` (`object.__new__(C)`
// runs no __init__).
bool builtNowhere(const PySource& src, TSNode n) {
  TSNode p = ts_node_parent(n);
  while (is<"parenthesized_expression">(p) ||
         (is<"attribute">(p) && ts::same(field<"attribute">(p), n))) {
    n = p;
    p = ts_node_parent(p);
  }
  if (is<"comparison_operator">(p)) return true;
  if (is<"tuple">(p) && is<"comparison_operator">(ts_node_parent(p))) return true;
  if (!is<"argument_list">(p) || !ts::same(ts_node_named_child(p, 0), n)) return false;
  std::string_view callee = src.text(field<"function">(ts_node_parent(p)));
  auto endsWith = [&](std::string_view end) {
    return callee.size() >= end.size() && callee.substr(callee.size() - end.size()) == end &&
           (callee.size() == end.size() || callee[callee.size() - end.size() - 1] == '.');
  };
  return callee == "hasattr" || callee == "delattr" || endsWith("setattr") ||
         endsWith("patch.object") || endsWith("__new__");
}

// Whether `n` is a base in a class statement's list (`class X(C)`, `class X(m.C)`).
bool baseOf(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"attribute">(p) && ts::same(field<"attribute">(p), n)) {
    n = p;
    p = ts_node_parent(p);
  }
  return is<"argument_list">(p) && is<"class_definition">(ts_node_parent(p)) &&
         ts::same(field<"superclasses">(ts_node_parent(p)), p);
}

bool inAnnotation(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (is<"type">(p)) return true;
    if (is<"function_definition">(p) || is<"class_definition">(p) || is<"module">(p)) return false;
  }
  return false;
}

bool objectOfAttribute(TSNode n) {
  TSNode p = ts_node_parent(n);
  return is<"attribute">(p) && ts::same(field<"object">(p), n);
}

// Whether `n` is a name a statement binds or unbinds, not a value it reads: an assignment's
// target (`X = None`, `X: T = None`, `X, y = ...`), a loop's or comprehension's, `with ... as
// X`, `except E as X`, a walrus's name, a parameter, `del X`, `global X`, `nonlocal X`; or a
// keyword's name (`f(X=1)`).
bool bindsIt(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (is<"named_expression">(p) || is<"keyword_argument">(p) || is<"default_parameter">(p) ||
      is<"typed_default_parameter">(p))
    return ts::same(field<"name">(p), n);
  if (is<"except_clause">(p)) return ts::same(field<"alias">(p), n);
  if (is<"as_pattern">(p)) return ts::same(field<"alias">(p), n);
  if (is<"as_pattern_target">(p) || is<"parameters">(p) || is<"lambda_parameters">(p) ||
      is<"global_statement">(p) || is<"nonlocal_statement">(p) || is<"typed_parameter">(p))
    return true;
  // Up through the patterns that only group targets.
  while (is<"pattern_list">(p) || is<"tuple_pattern">(p) || is<"list_pattern">(p) ||
         is<"list_splat_pattern">(p) || is<"expression_list">(p) || is<"tuple">(p) ||
         is<"list">(p) || is<"parenthesized_expression">(p)) {
    n = p;
    p = ts_node_parent(p);
  }
  if (is<"assignment">(p) || is<"for_statement">(p) || is<"for_in_clause">(p))
    return ts::same(field<"left">(p), n);
  return is<"delete_statement">(p);
}

// The names a file's imports bind (`m` of `import m.sub`, `s` of `import m.s as s`, `s` of
// `from m import s`).
std::set<std::string, std::less<>> importedNames(const PySource& src) {
  std::set<std::string, std::less<>> out;
  walk(src.root(), [&](TSNode n) {
    if (!is<"import_statement">(n) && !is<"import_from_statement">(n)) return;
    for (uint32_t i = 0, count = ts_node_child_count(n); i < count; ++i) {
      const char* f = ts_node_field_name_for_child(n, i);
      if (!f || std::string_view(f) != "name") continue;
      TSNode name = ts_node_child(n, i);
      if (is<"aliased_import">(name))
        out.insert(std::string(src.text(field<"alias">(name))));
      else if (ts_node_named_child_count(name) > 0)
        out.insert(std::string(src.text(ts_node_named_child(name, 0))));
    }
  });
  return out;
}

// Whether `n` is an attribute's name (`obj.X`) whose object is not reached through a name the
// file imports: `self.X`, `config.X` name something else; `specs.X`, `pkg.specs.X` may be it.
bool attributeOfNoModule(const PySource& src, TSNode n,
                         const std::set<std::string, std::less<>>& imported) {
  TSNode p = ts_node_parent(n);
  if (!is<"attribute">(p) || !ts::same(field<"attribute">(p), n)) return false;
  TSNode object = field<"object">(p);
  while (is<"attribute">(object)) object = field<"object">(object);
  return is<"identifier">(object) && !imported.count(src.text(object));
}

bool hasInit(const PySource& src, TSNode cls) {
  return !ts_node_is_null(src.method(cls, "__init__"));
}

// Whether `n` is the class whose attribute `getattr` reads by a literal name that is not a
// dunder (`getattr(C, "flag", False)`): that builds nothing, where `getattr(C, "__init__")` or
// `getattr(C, name)` may fetch what does.
bool attributeAccessArgument(const PySource& src, TSNode n) {
  TSNode args = ts_node_parent(n);
  if (!is<"argument_list">(args) || ts_node_named_child_count(args) < 2 ||
      !ts::same(ts_node_named_child(args, 0), n))
    return false;
  TSNode call = ts_node_parent(args);
  if (!is<"call">(call) || src.text(field<"function">(call)) != "getattr") return false;
  TSNode key = ts_node_named_child(args, 1);
  std::string_view k = src.text(key);
  return is<"string">(key) && k.find("__") == std::string_view::npos &&
         k.find('{') == std::string_view::npos;
}

// Each identifier spelled `name` in [from, to) of `src`, found by the text (few per file).
void occurrences(const PySource& src, unsigned from, unsigned to, std::string_view name,
                 const std::function<void(TSNode)>& f) {
  const std::string& text = src.text();
  for (size_t at = text.find(name, from); at != std::string::npos && at + name.size() <= to;
       at = text.find(name, at + 1)) {
    TSNode n = src.covering(static_cast<unsigned>(at), static_cast<unsigned>(name.size()));
    if (is<"identifier">(n) && src.text(n) == name && ts_node_start_byte(n) == at) f(n);
  }
}

// Whether identifier `n` (inside `scope`) is in `scope`'s own scope: not inside a def, class,
// lambda or comprehension nested in it, but for a nested def's or class's name.
bool ownScope(TSNode n, TSNode scope) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts::same(p, scope);
       n = p, p = ts_node_parent(p))
    if (((is<"function_definition">(p) || is<"class_definition">(p)) &&
         !ts::same(field<"name">(p), n)) ||
        is<"lambda">(p) || is<"list_comprehension">(p) || is<"set_comprehension">(p) ||
        is<"dictionary_comprehension">(p) || is<"generator_expression">(p))
      return false;
  return true;
}

// The binding of `name` that a use inside `scope` (a def or lambda) sees there: Local (a
// parameter, an assignment or loop target, a nested def's name, ... of this scope), Global
// (`global name`), Import (imported here: may be the definition itself), or None.
enum class Binding { None, Local, Global, Import };

Binding bindingIn(const PySource& src, TSNode scope, std::string_view name) {
  Binding out = Binding::None;
  occurrences(src, ts_node_start_byte(scope), ts_node_end_byte(scope), name, [&](TSNode n) {
    if (out == Binding::Global || out == Binding::Import || !ownScope(n, scope)) return;
    TSNode p = ts_node_parent(n);
    if (ts::same(p, scope)) return;  // the def's own name binds outside it
    if (is<"global_statement">(p))
      out = Binding::Global;
    else if (inImport(n))
      out = Binding::Import;
    else if (is<"nonlocal_statement">(p) || bindsIt(n) ||
             ((is<"function_definition">(p) || is<"class_definition">(p)) &&
              ts::same(field<"name">(p), n)) ||
             (is<"augmented_assignment">(p) && ts::same(field<"left">(p), n)))
      out = Binding::Local;  // nonlocal: an enclosing def's local, not the module's
  });
  return out;
}

}  // namespace

namespace {

// The dotted path of a root-relative .py file, `.py` and `/__init__.py` dropped: the module's
// name under any package root is a run of its last components.
std::string dottedOf(std::string file) {
  if (file.ends_with(".py")) file.resize(file.size() - 3);
  if (file == "__init__") return "";
  if (file.ends_with("/__init__")) file.resize(file.size() - 9);
  std::replace(file.begin(), file.end(), '/', '.');
  return file;
}

// Whether `module` lies outside the tree: its top-level package is no directory or module of
// it (`mup`, `torch`). An import of such a module binds none of the tree's definitions; a
// name under a package of the tree (`megatron.core.mpu`, an alias its __init__ binds) may be
// any of them.
bool outsideTree(const std::string& module, const std::set<std::string, std::less<>>& names) {
  return !names.count(std::string_view(module).substr(0, module.find('.')));
}

// The module an import statement's `module_name` names from `file`: `..x` from a/b/c.py is a.x.
std::string importedModule(const PySource& src, TSNode name, const std::string& file) {
  std::string written(src.text(name));
  size_t dots = std::min(written.find_first_not_of('.'), written.size());
  if (dots == 0) return written;
  std::string package = dottedOf(file);
  auto up = [&] {
    size_t dot = package.rfind('.');
    package.resize(dot == std::string::npos ? 0 : dot);
  };
  if (!file.ends_with("__init__.py")) up();  // a module's package; a package's __init__ is it
  for (size_t level = 1; level < dots; ++level) up();
  std::string rest = written.substr(dots);
  return package.empty() ? rest : rest.empty() ? package : package + "." + rest;
}

// What the imports of `src` bind to each name they bind: a module (`a` of `import a.b`, `m` of
// `import x as m`) or a module's name (`from m import x` binds x to m.x), the last binding
// of each; `from m import *` binds every public name of m: those modules in `stars`.
struct Imports {
  std::map<std::string, std::string, std::less<>> bound;
  std::vector<std::string> stars;
};

Imports importsOf(const PySource& src, const std::string& file) {
  Imports out;
  walk(src.root(), [&](TSNode n) {
    bool from = is<"import_from_statement">(n);
    if (!from && !is<"import_statement">(n)) return;
    std::string module = from ? importedModule(src, field<"module_name">(n), file) : "";
    for (uint32_t i = 0, count = ts_node_named_child_count(n); i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (from && ts::same(c, field<"module_name">(n))) continue;
      if (is<"wildcard_import">(c)) {
        out.stars.push_back(module);
        continue;
      }
      TSNode name = is<"aliased_import">(c) ? field<"name">(c) : c;
      if (!is<"dotted_name">(name)) continue;
      std::string written(src.text(name));
      std::string full = from ? (module.empty() ? written : module + "." + written) : written;
      if (is<"aliased_import">(c))
        out.bound[std::string(src.text(field<"alias">(c)))] = full;
      else if (from)
        out.bound[written] = full;
      else
        out.bound[written.substr(0, written.find('.'))] = written.substr(0, written.find('.'));
    }
  });
  return out;
}

}  // namespace

std::set<std::string, std::less<>> treeNames(const std::set<std::string>& files) {
  std::set<std::string, std::less<>> out;
  for (const std::string& f : files) {
    std::string d = dottedOf(f);
    for (size_t at = 0; at <= d.size();) {
      size_t dot = std::min(d.find('.', at), d.size());
      out.insert(d.substr(at, dot - at));
      at = dot + 1;
    }
  }
  return out;
}

std::vector<NameUse> namingsOf(Sources& sources, const std::set<std::string>& files,
                               const std::string& name) {
  std::vector<NameUse> out = usesOf(sources, files, name);
  std::set<std::string> aliases;
  for (const std::string& file : files) {
    const PySource* src = sources.get(file);
    if (!src || src->text().find(name) == std::string::npos) continue;
    for (const auto& [alias, full] : importsOf(*src, file).bound)
      if (alias != name && (full == name || full.ends_with("." + name))) aliases.insert(alias);
  }
  for (const std::string& alias : aliases)
    for (NameUse& use : usesOf(sources, files, alias)) out.push_back(std::move(use));
  return out;
}

bool refersTo(const NameUse& use, const Definition& def) {
  if (!def.tree) return refersToModuleLevel(use, def.file);
  TSNode p = ts_node_parent(use.node);
  std::string_view name = use.src->text(use.node);
  if (is<"attribute">(p) && ts::same(field<"attribute">(p), use.node)) {
    // `self.f = ...`, `m.f += 1`, `del m.f` bind or unbind an attribute: they name no value.
    TSNode q = ts_node_parent(p);
    if (((is<"assignment">(q) || is<"augmented_assignment">(q)) && ts::same(field<"left">(q), p)) ||
        is<"delete_statement">(q))
      return false;
    if (def.member) return name == def.name;  // `obj.m`: obj may be of its class
    // A module's function is an attribute of a module: `ps.f`, `pkg.ps.f`; not of a local,
    // a parameter (`self.f`, `args.f`), nor of a module outside the tree (`mup.f`).
    TSNode object = field<"object">(p);
    while (is<"attribute">(object)) object = field<"object">(object);
    if (!is<"identifier">(object)) return true;  // a call's result, a subscript: may be anything
    std::string_view root = use.src->text(object);
    Imports imports = importsOf(*use.src, use.file);
    if (auto m = imports.bound.find(root); m != imports.bound.end())
      return !outsideTree(m->second, *def.tree);
    for (TSNode s = PySource::enclosingDef(use.node); !ts_node_is_null(s);
         s = PySource::enclosingDef(s))
      if (bindingIn(*use.src, s, root) == Binding::Local) return false;
    return true;  // a module-level name: it may be bound to a module (`ps = parallel_state`)
  }
  if (name != def.name && use.file == def.file) return false;
  if (!refersToModuleLevel(use, def.file)) return false;
  if (use.file == def.file) return true;
  // Another file's name is the definition only where an import binds it to a name of the tree
  // spelled as the definition is: `from m import f`, `from m import f as g` (then `g`), `from
  // m import *`; an import of another name or of a module outside the tree binds no
  // definition of it (`from mup import coord_check as mup_coord_check` binds neither).
  Imports imports = importsOf(*use.src, use.file);
  if (auto m = imports.bound.find(name); m != imports.bound.end())
    return m->second.ends_with("." + def.name) && !outsideTree(m->second, *def.tree);
  return name == def.name && !def.name.starts_with('_') &&
         std::any_of(imports.stars.begin(), imports.stars.end(),
                     [&](const std::string& m) { return !outsideTree(m, *def.tree); });
}

namespace {

// How the innermost def (or lambda) around `at` that binds `name` binds it, or None when no def
// around it does. A default value is evaluated where the def is, not in it.
Binding bindingAround(const PySource& src, TSNode at, std::string_view name) {
  TSNode from = at;
  for (TSNode s = ts_node_parent(at); !ts_node_is_null(s); from = s, s = ts_node_parent(s)) {
    if ((!is<"function_definition">(s) && !is<"lambda">(s)) ||
        ts::same(from, field<"parameters">(s)))
      continue;
    if (Binding b = bindingIn(src, s, name); b != Binding::None) return b;
  }
  return Binding::None;
}

}  // namespace

bool boundLocally(const PySource& src, TSNode at, std::string_view name) {
  return bindingAround(src, at, name) == Binding::Local;
}

bool refersToModuleLevel(const NameUse& use, const std::string& definedIn) {
  TSNode p = ts_node_parent(use.node);
  if (is<"attribute">(p) && ts::same(field<"attribute">(p), use.node)) return true;
  std::string_view name = use.src->text(use.node);
  if (Binding b = bindingAround(*use.src, use.node, name); b != Binding::None)
    return b != Binding::Local;
  if (use.file == definedIn) return true;
  // Another file's own global of that name, or none: unless an import binds it (any import of
  // the name, `import *` included, is taken to be the definition).
  bool imports = false;
  const std::string& text = use.src->text();
  for (size_t at = text.find("import *"); at != std::string::npos && !imports;
       at = text.find("import *", at + 1))
    imports = inImport(use.src->covering(static_cast<unsigned>(at), 6));
  occurrences(*use.src, 0, static_cast<unsigned>(text.size()), name,
              [&](TSNode n) { imports = imports || inImport(n); });
  return imports;
}

std::string namedAsValue(Sources& sources, const std::set<std::string>& files,
                         const std::string& file, const PySource& src, TSNode def,
                         const rules::PythonSpecRule* specs, std::vector<NameUse>* placed,
                         std::vector<std::string>* names) {
  TSNode cls = PySource::classOf(def);
  bool isClass = !ts_node_is_null(cls);
  std::vector<std::string> own;
  if (!names) names = &own;
  names->assign({std::string(src.text(field<"name">(isClass ? cls : def)))});
  std::vector<std::tuple<std::string, const PySource*, TSNode>> classes{{file, &src, cls}};
  const std::set<std::string, std::less<>> tree = treeNames(files);
  for (size_t k = 0; k < names->size(); ++k) {
    if (isClass) {
      // A method that builds its own class (`cls(...)`, `type(self)(...)`) passes what it will.
      const auto& [cfile, csrc, node] = classes[k];
      std::string_view text = csrc->text(node);
      for (std::string_view builds : {"cls(", "type(self)(", "__class__("})
        if (size_t at = text.find(builds); at != std::string_view::npos)
          return cfile + ":" +
                 std::to_string(ts_node_start_point(node).row + 1 +
                                std::count(text.begin(), text.begin() + at, '\n')) +
                 " builds " + (*names)[k] + " by `" + std::string(builds) + "...)`";
    }
    std::map<const PySource*, std::set<std::string, std::less<>>> imported;
    const Definition named{std::get<0>(classes[k]), (*names)[k], false, &tree};
    for (const NameUse& use : namingsOf(sources, files, (*names)[k])) {
      if (!ts_node_is_null(use.call) || bindsIt(use.node) || !refersTo(use, named)) continue;
      auto [it, fresh] = imported.try_emplace(use.src);
      if (fresh) it->second = importedNames(*use.src);
      if (attributeOfNoModule(*use.src, use.node, it->second)) continue;
      if (isClass && baseOf(use.node)) {
        // A subclass without __init__ of its own is built through this one.
        TSNode sub = ts_node_parent(ts_node_parent(use.node));
        if (!is<"class_definition">(sub)) sub = ts_node_parent(sub);
        if (is<"class_definition">(sub) && !hasInit(*use.src, sub)) {
          std::string name(use.src->text(field<"name">(sub)));
          if (std::find(names->begin(), names->end(), name) == names->end()) {
            names->push_back(name);
            classes.push_back({use.file, use.src, sub});
          }
        }
        continue;
      }
      if (isClass && (classArgument(*use.src, use.node) || inAnnotation(use.node) ||
                      objectOfAttribute(use.node) || builtNowhere(*use.src, use.node) ||
                      attributeAccessArgument(*use.src, use.node)))
        continue;
      if (isClass && specs && placed && specPlacement(*specs, use)) {
        placed->push_back(use);
        continue;
      }
      return use.file + ":" + std::to_string(ts::lineOf(use.node)) + " names " + (*names)[k] +
             (k == 0 ? "" : " (which inherits " + (*names)[0] + ".__init__)");
    }
  }
  return "";
}

}  // namespace gridlock::rewrite::py
