#include "python/scopes.h"

#include "python/chains.h"
#include "python/node.h"

namespace gridlock::python {

namespace {

bool isComprehension(Node n) {
  return is<"list_comprehension">(n) || is<"set_comprehension">(n) ||
         is<"dictionary_comprehension">(n) || is<"generator_expression">(n);
}

std::vector<std::string> dottedNames(const SyntaxTree& tree, Node dotted) {
  std::vector<std::string> out;
  for (Node part : namedChildren(dotted)) out.emplace_back(tree.text(part));
  return out;
}

// `from ..a.b import`: {level 2, {a, b}}.
Path fromModule(const SyntaxTree& tree, Node stmt) {
  Path p;
  p.global = false;
  Node m = field<"module_name">(stmt);
  if (is<"relative_import">(m)) {
    for (Node part : namedChildren(m)) {
      if (is<"import_prefix">(part))
        p.level = static_cast<unsigned>(tree.text(part).size());
      else if (is<"dotted_name">(part))
        p.names = dottedNames(tree, part);
    }
  } else if (is<"dotted_name">(m)) {
    p.names = dottedNames(tree, m);
  }
  return p;
}

}  // namespace

std::vector<std::pair<std::string, Path>> importBindings(const SyntaxTree& tree, Node stmt,
                                                         std::vector<Node>* written) {
  std::vector<std::pair<std::string, Path>> out;
  const bool from = is<"import_from_statement">(stmt);
  Path base = from ? fromModule(tree, stmt) : Path{false, 0, {}};
  // Every named child but the module a `from` names is an imported name (tree-sitter 0.20's
  // field lookup misses a repeated field's later children, so fields are not asked).
  Node module = from ? field<"module_name">(stmt) : Node{};
  for (Node item : namedChildren(stmt)) {
    if ((from && same(item, module)) || is<"wildcard_import">(item)) continue;
    Node dotted = is<"aliased_import">(item) ? field<"name">(item) : item;
    Node alias = is<"aliased_import">(item) ? field<"alias">(item) : Node{};
    std::vector<std::string> names = dottedNames(tree, dotted);
    if (names.empty()) continue;
    if (written) written->push_back(dotted);
    Path target = base;
    if (from || !alias.isNull()) {
      target.names.insert(target.names.end(), names.begin(), names.end());
      out.emplace_back(alias.isNull() ? names.back() : std::string(tree.text(alias)), target);
    } else {
      target.names = {names.front()};  // `import a.b` binds a
      out.emplace_back(names.front(), target);
    }
  }
  return out;
}

Path starImportOf(const SyntaxTree& tree, Node stmt) { return fromModule(tree, stmt); }

namespace {

// What a module-level `name = value` holds that the file follows (value_uses.h): a display of
// values, or a call's result.
void holdsOf(Binding& b, Node value, const SyntaxTree& tree) {
  if (is<"list">(value) || is<"tuple">(value) || is<"set">(value) || is<"dictionary">(value)) {
    b.holds = Binding::Holds::Display;
  } else if (is<"call">(value)) {
    std::optional<Chain> callee =
        chainOf(tree, field<"function">(value), [](const std::string&, Node) { return true; });
    if (!callee || callee->globalsItem) return;
    b.holds = Binding::Holds::Result;
    b.resultOf = {Path{true, 0, callee->names}};
  }
}

}  // namespace

// Pass one over a file: every scope and what it binds.
class Binder {
 public:
  Binder(const SyntaxTree& tree, ModuleFacts& out, ScopeTable& table)
      : tree_(tree), out_(out), table_(table) {}

  void run() {
    Scope* m = open(Scope::Kind::Module, nullptr, tree_.flat().root());
    children(tree_.flat().root(), m);
  }

 private:
  Scope* open(Scope::Kind kind, Scope* parent, Node n) {
    auto s = std::make_unique<Scope>();
    s->kind = kind;
    s->parent = parent;
    Scope* raw = s.get();
    table_.scopes_.push_back(std::move(s));
    table_.opened_[n.id()] = raw;
    return raw;
  }

  void children(Node n, Scope* s) {
    for (Node child : namedChildren(n)) visit(child, s);
  }

  void visit(Node n, Scope* s);
  void functionDef(Node n, Scope* s, const std::vector<std::string>& decorators);
  void classDef(Node n, Scope* s);
  void lambda(Node n, Scope* s);
  void comprehension(Node n, Scope* s);
  void assignment(Node n, Scope* s);
  void imports(Node n, Scope* s);
  std::vector<Param> parameters(Node params, Scope* outer, Scope* inner);
  void bindTargets(Node target, Scope* s);
  bool unpackCall(Node left, Node call, Scope* s);
  void bind(Scope* s, const std::string& name, LocalBinding b, Node at, Binding::Kind kind,
            Path target = {});
  std::string qualified(const std::string& name) const {
    std::string q;
    for (const auto& n : names_) q += n + ".";
    return q + name;
  }

  const SyntaxTree& tree_;
  ModuleFacts& out_;
  ScopeTable& table_;
  std::vector<std::string> names_;  // the defs and classes around, for qualified names
};

void Binder::bind(Scope* s, const std::string& name, LocalBinding b, Node at, Binding::Kind kind,
                  Path target) {
  Scope* home = s;
  bool viaGlobal = false;
  if (s->globals.count(name)) {
    home = table_.module();
    viaGlobal = s != home;
  } else if (s->nonlocals.count(name)) {
    for (Scope* up = s->parent; up; up = up->parent)
      if (up->kind == Scope::Kind::Function && up->bindings.count(name)) {
        home = up;
        break;
      }
  }
  home->bindings[name].push_back(b);
  if (home != table_.module()) return;
  Binding m;
  m.name = name;
  m.kind = viaGlobal ? Binding::Kind::Value : kind;
  if (m.kind == Binding::Kind::Alias) m.target = std::move(target);
  m.line = lineOf(at);
  m.setByFunction = viaGlobal;
  m.assigned = m.kind == Binding::Kind::Alias && b.kind == LocalBinding::Kind::Alias;
  out_.bindings.push_back(std::move(m));
}

void Binder::bindTargets(Node t, Scope* s) {
  t = unparen(t);
  if (is<"identifier">(t)) {
    bind(s, std::string(tree_.text(t)), {}, t, Binding::Kind::Value);
    return;
  }
  // Patterns: tuples, lists, starred targets, `as` targets; attributes and subscripts bind
  // nothing.
  if (is<"pattern_list">(t) || is<"tuple_pattern">(t) || is<"list_pattern">(t) ||
      is<"list_splat_pattern">(t) || is<"as_pattern_target">(t) || is<"expression_list">(t) ||
      is<"tuple">(t) || is<"list">(t) || is<"list_splat">(t))
    for (Node child : namedChildren(t)) bindTargets(child, s);
}

// `a, b = f(x)`: each name bound to that element of the call's result (a module-level one
// says so: Binding::Holds::Result). False, binding nothing, for any other target.
bool Binder::unpackCall(Node left, Node call, Scope* s) {
  left = unparen(left);
  if (!is<"call">(unparen(call)) || !(is<"pattern_list">(left) || is<"tuple_pattern">(left) ||
                                      is<"expression_list">(left) || is<"tuple">(left)))
    return false;
  NodeList names = namedChildren(left);
  for (Node n : names)
    if (!is<"identifier">(n)) return false;
  std::optional<Chain> callee = chainOf(tree_, field<"function">(unparen(call)),
                                        [](const std::string&, Node) { return true; });
  for (size_t i = 0; i < names.size(); ++i) {
    LocalBinding b;
    b.unpacked = unparen(call);
    b.element = static_cast<int>(i);
    size_t before = out_.bindings.size();
    bind(s, std::string(tree_.text(names[i])), b, names[i], Binding::Kind::Value);
    if (out_.bindings.size() > before && callee &&
        out_.bindings.back().kind == Binding::Kind::Value) {
      out_.bindings.back().holds = Binding::Holds::Result;
      out_.bindings.back().resultOf = {Path{true, 0, callee->names}};
      out_.bindings.back().element = static_cast<int>(i);
    }
  }
  return true;
}

void Binder::imports(Node n, Scope* s) {
  if (is<"import_from_statement">(n)) {
    for (Node child : namedChildren(n))
      if (is<"wildcard_import">(child) && s == table_.module())
        out_.starImports.push_back(starImportOf(tree_, n));
  }
  std::vector<Node> written;
  for (auto& [name, path] : importBindings(tree_, n, &written)) {
    LocalBinding b;
    b.kind = LocalBinding::Kind::Import;
    b.import = path;
    bind(s, name, b, n, Binding::Kind::Alias, path);
  }
  // What it loads: `import a.b` a.b (a binding names only a), `from m import x` m and m.x.
  const bool from = is<"import_from_statement">(n);
  Path base = from ? starImportOf(tree_, n) : Path{false, 0, {}};
  if (from) out_.loads.push_back(base);
  for (Node dotted : written) {
    Path load = base;
    for (std::string& name : dottedNames(tree_, dotted)) load.names.push_back(std::move(name));
    out_.loads.push_back(std::move(load));
  }
}

void Binder::assignment(Node n, Scope* s) {
  Node left = field<"left">(n), right = field<"right">(n);
  if (right.isNull()) {  // `x: T` alone binds in a function, not at run time at module
    visit(field<"type">(n), s);
    if (is<"identifier">(left) && s != table_.module()) bindTargets(left, s);
    return;
  }
  visit(right, s);
  visit(field<"type">(n), s);
  // A target's own expressions (`a[i] = `, `f().x = `) are evaluated too.
  if (!is<"identifier">(left)) visit(left, s);
  // `a = b = value`: right is an assignment whose value is the chain's end.
  Node value = right;
  while (is<"assignment">(value)) value = field<"right">(value);
  std::optional<Chain> chain;
  if (is<"identifier">(left))
    chain = chainOf(tree_, value, [](const std::string&, Node) { return true; });
  // `x = globals()["y"]` copies a value: x names no global.
  if (!chain || chain->globalsItem) {
    if (!is<"identifier">(left)) {
      if (!unpackCall(left, value, s)) bindTargets(left, s);
      return;
    }
    LocalBinding other;
    other.value = value;
    size_t before = out_.bindings.size();
    bind(s, std::string(tree_.text(left)), other, left, Binding::Kind::Value);
    if (out_.bindings.size() > before && out_.bindings.back().kind == Binding::Kind::Value)
      holdsOf(out_.bindings.back(), unparen(value), tree_);
    return;
  }
  LocalBinding b;
  b.kind = LocalBinding::Kind::Alias;
  b.value = value;
  Path target;
  target.names = chain->names;
  bind(s, std::string(tree_.text(left)), b, left, Binding::Kind::Alias, target);
}

std::vector<Param> Binder::parameters(Node params, Scope* outer, Scope* inner) {
  std::vector<Param> out;
  bool keywordOnly = false;
  for (Node p : namedChildren(params)) {
    Param param;
    Node name = p, type{}, value{};
    if (is<"typed_parameter">(p)) {
      name = p.namedChild(0);
      type = field<"type">(p);
    } else if (is<"default_parameter">(p) || is<"typed_default_parameter">(p)) {
      name = field<"name">(p);
      type = field<"type">(p);
      value = field<"value">(p);
    }
    if (is<"keyword_separator">(p)) {
      keywordOnly = true;
      continue;
    }
    if (is<"positional_separator">(p)) {
      for (auto& q : out) q.kind = Param::Kind::PositionalOnly;
      continue;
    }
    param.kind = keywordOnly ? Param::Kind::KeywordOnly : Param::Kind::Positional;
    std::string prefix;
    if (is<"list_splat_pattern">(name)) {
      param.kind = Param::Kind::VarArgs;
      keywordOnly = true;
      prefix = "*";
      name = name.namedChild(0);
    } else if (is<"dictionary_splat_pattern">(name)) {
      param.kind = Param::Kind::VarKeywords;
      prefix = "**";
      name = name.namedChild(0);
    }
    if (!is<"identifier">(name)) continue;
    param.name = prefix + std::string(tree_.text(name));
    if (!type.isNull()) {
      param.annotation = tree_.text(type);
      visit(type, outer);
    }
    if (!value.isNull()) {
      param.hasDefault = true;
      param.defaultText = tree_.text(value);
      visit(value, outer);  // defaults are evaluated where the def is
    }
    LocalBinding b;
    b.kind = LocalBinding::Kind::Param;
    b.param = static_cast<int>(out.size());
    inner->bindings[std::string(tree_.text(name))].push_back(b);
    out.push_back(std::move(param));
  }
  return out;
}

void Binder::functionDef(Node n, Scope* s, const std::vector<std::string>& decorators) {
  std::string name(tree_.text(field<"name">(n)));
  bind(s, name, {}, n, Binding::Kind::Def);
  Scope* f = open(Scope::Kind::Function, s, n);
  Function fn;
  fn.qualname = qualified(name);
  fn.line = lineOf(n);
  if (s->kind == Scope::Kind::Class) fn.classIndex = s->classIndex;
  for (const auto& d : decorators) {
    fn.isStatic = fn.isStatic || d == "staticmethod";
    fn.isClassMethod = fn.isClassMethod || d == "classmethod";
  }
  f->function = static_cast<int>(out_.functions.size());
  out_.functions.push_back(fn);
  std::vector<Param> params = parameters(field<"parameters">(n), s, f);
  out_.functions[f->function].params = std::move(params);
  visit(field<"return_type">(n), s);
  names_.push_back(name);
  visit(field<"body">(n), f);
  names_.pop_back();
}

void Binder::classDef(Node n, Scope* s) {
  std::string name(tree_.text(field<"name">(n)));
  bind(s, name, {}, n, Binding::Kind::Class);
  visit(field<"superclasses">(n), s);
  Scope* c = open(Scope::Kind::Class, s, n);
  c->classIndex = static_cast<int>(out_.classes.size());
  Class cls;
  cls.qualname = qualified(name);
  cls.line = lineOf(n);
  out_.classes.push_back(std::move(cls));
  names_.push_back(name);
  visit(field<"body">(n), c);
  names_.pop_back();
}

void Binder::lambda(Node n, Scope* s) {
  Scope* l = open(Scope::Kind::Lambda, s, n);
  if (Node p = field<"parameters">(n); !p.isNull()) parameters(p, s, l);
  visit(field<"body">(n), l);
}

// The first iterable is evaluated where the comprehension is; the rest in its own scope.
void Binder::comprehension(Node n, Scope* s) {
  Scope* c = open(Scope::Kind::Comprehension, s, n);
  bool first = true;
  for (Node part : namedChildren(n)) {
    if (is<"for_in_clause">(part)) {
      visit(field<"right">(part), first ? s : c);
      first = false;
      bindTargets(field<"left">(part), c);
    } else {
      visit(part, c);
    }
  }
}

void Binder::visit(Node n, Scope* s) {
  if (n.isNull() || is<"comment">(n) || is<"string_content">(n)) return;
  if (is<"import_statement">(n) || is<"import_from_statement">(n)) return imports(n, s);
  if (is<"decorated_definition">(n)) {
    std::vector<std::string> decorators;
    for (Node d : namedChildren(n)) {
      if (!is<"decorator">(d)) continue;
      visit(d, s);
      decorators.emplace_back(tree_.text(d.namedChild(0)));
    }
    Node def = field<"definition">(n);
    if (is<"function_definition">(def)) return functionDef(def, s, decorators);
    return visit(def, s);
  }
  if (is<"function_definition">(n)) return functionDef(n, s, {});
  if (is<"class_definition">(n)) return classDef(n, s);
  if (is<"lambda">(n)) return lambda(n, s);
  if (isComprehension(n)) return comprehension(n, s);
  if (is<"assignment">(n)) return assignment(n, s);
  if (is<"global_statement">(n) || is<"nonlocal_statement">(n)) {
    auto& set = is<"global_statement">(n) ? s->globals : s->nonlocals;
    for (Node name : namedChildren(n)) set.emplace(tree_.text(name));
    return;
  }
  if (is<"named_expression">(n)) {
    Scope* home = s;
    while (home->kind == Scope::Kind::Comprehension) home = home->parent;
    visit(field<"value">(n), s);
    return bindTargets(field<"name">(n), home);
  }
  if (is<"augmented_assignment">(n) || is<"delete_statement">(n)) {
    Node target = is<"delete_statement">(n) ? n.namedChild(0) : field<"left">(n);
    bindTargets(target, s);
    return children(n, s);
  }
  if (is<"for_statement">(n)) bindTargets(field<"left">(n), s);
  if (is<"as_pattern">(n)) bindTargets(field<"alias">(n), s);
  children(n, s);
}

ScopeTable::ScopeTable(const SyntaxTree& tree, ModuleFacts& out) { Binder(tree, out, *this).run(); }

Scope* ScopeTable::opened(Node n) const {
  auto it = opened_.find(n.id());
  return it == opened_.end() ? nullptr : it->second;
}

Scope* ScopeTable::lookup(Scope* from, const std::string& name) const {
  if (from->globals.count(name)) return module();
  if (from->bindings.count(name) && !from->nonlocals.count(name)) return from;
  for (Scope* s = from->parent; s; s = s->parent) {
    if (s->kind == Scope::Kind::Class) continue;  // a class body is not seen from inside
    if (s->kind == Scope::Kind::Module) break;
    if (s->globals.count(name)) return module();
    if (s->bindings.count(name)) return s;
  }
  return module()->bindings.count(name) ? module() : nullptr;
}

}  // namespace gridlock::python
