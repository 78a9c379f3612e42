#include "python/scopes.h"

#include "python/chains.h"
#include "python/node.h"

namespace gridlock::python {

namespace {

bool isComprehension(TSNode n) {
  return is(n, "list_comprehension") || is(n, "set_comprehension") ||
         is(n, "dictionary_comprehension") || is(n, "generator_expression");
}

std::vector<std::string> dottedNames(const SyntaxTree& tree, TSNode dotted) {
  std::vector<std::string> out;
  for (TSNode part : namedChildren(dotted)) out.emplace_back(tree.text(part));
  return out;
}

// `from ..a.b import`: {level 2, {a, b}}.
Path fromModule(const SyntaxTree& tree, TSNode stmt) {
  Path p;
  p.global = false;
  TSNode m = field(stmt, "module_name");
  if (is(m, "relative_import")) {
    for (TSNode part : namedChildren(m)) {
      if (is(part, "import_prefix"))
        p.level = static_cast<unsigned>(tree.text(part).size());
      else if (is(part, "dotted_name"))
        p.names = dottedNames(tree, part);
    }
  } else if (is(m, "dotted_name")) {
    p.names = dottedNames(tree, m);
  }
  return p;
}

}  // namespace

std::vector<std::pair<std::string, Path>> importBindings(const SyntaxTree& tree, TSNode stmt) {
  std::vector<std::pair<std::string, Path>> out;
  const bool from = is(stmt, "import_from_statement");
  Path base = from ? fromModule(tree, stmt) : Path{false, 0, {}};
  // Every named child but the module a `from` names is an imported name (tree-sitter 0.20's
  // field lookup misses a repeated field's later children, so fields are not asked).
  TSNode module = from ? field(stmt, "module_name") : TSNode{};
  for (TSNode item : namedChildren(stmt)) {
    if ((from && same(item, module)) || is(item, "wildcard_import")) continue;
    TSNode dotted = is(item, "aliased_import") ? field(item, "name") : item;
    TSNode alias = is(item, "aliased_import") ? field(item, "alias") : TSNode{};
    std::vector<std::string> names = dottedNames(tree, dotted);
    if (names.empty()) continue;
    Path target = base;
    if (from || !ts_node_is_null(alias)) {
      target.names.insert(target.names.end(), names.begin(), names.end());
      out.emplace_back(ts_node_is_null(alias) ? names.back() : std::string(tree.text(alias)),
                       target);
    } else {
      target.names = {names.front()};  // `import a.b` binds a
      out.emplace_back(names.front(), target);
    }
  }
  return out;
}

Path starImportOf(const SyntaxTree& tree, TSNode stmt) { return fromModule(tree, stmt); }

// Pass one over a file: every scope and what it binds.
class Binder {
 public:
  Binder(const SyntaxTree& tree, ModuleFacts& out, ScopeTable& table)
      : tree_(tree), out_(out), table_(table) {}

  void run() {
    Scope* m = open(Scope::Kind::Module, nullptr, tree_.root());
    children(tree_.root(), m);
  }

 private:
  Scope* open(Scope::Kind kind, Scope* parent, TSNode n) {
    auto s = std::make_unique<Scope>();
    s->kind = kind;
    s->parent = parent;
    Scope* raw = s.get();
    table_.scopes_.push_back(std::move(s));
    table_.opened_[n.id] = raw;
    return raw;
  }

  void children(TSNode n, Scope* s) {
    for (TSNode child : namedChildren(n)) visit(child, s);
  }

  void visit(TSNode n, Scope* s);
  void functionDef(TSNode n, Scope* s, const std::vector<std::string>& decorators);
  void classDef(TSNode n, Scope* s);
  void lambda(TSNode n, Scope* s);
  void comprehension(TSNode n, Scope* s);
  void assignment(TSNode n, Scope* s);
  void imports(TSNode n, Scope* s);
  std::vector<Param> parameters(TSNode params, Scope* outer, Scope* inner);
  void bindTargets(TSNode target, Scope* s);
  void bind(Scope* s, const std::string& name, LocalBinding b, TSNode at, Binding::Kind kind,
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

void Binder::bind(Scope* s, const std::string& name, LocalBinding b, TSNode at, Binding::Kind kind,
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
  out_.bindings.push_back(std::move(m));
}

void Binder::bindTargets(TSNode t, Scope* s) {
  t = unparen(t);
  if (is(t, "identifier")) {
    bind(s, std::string(tree_.text(t)), {}, t, Binding::Kind::Value);
    return;
  }
  // Patterns: tuples, lists, starred targets, `as` targets; attributes and subscripts bind
  // nothing.
  if (is(t, "pattern_list") || is(t, "tuple_pattern") || is(t, "list_pattern") ||
      is(t, "list_splat_pattern") || is(t, "as_pattern_target") || is(t, "expression_list") ||
      is(t, "tuple") || is(t, "list") || is(t, "list_splat"))
    for (TSNode child : namedChildren(t)) bindTargets(child, s);
}

void Binder::imports(TSNode n, Scope* s) {
  if (is(n, "import_from_statement")) {
    for (TSNode child : namedChildren(n))
      if (is(child, "wildcard_import") && s == table_.module())
        out_.starImports.push_back(starImportOf(tree_, n));
  }
  for (auto& [name, path] : importBindings(tree_, n)) {
    LocalBinding b;
    b.kind = LocalBinding::Kind::Import;
    b.import = path;
    bind(s, name, b, n, Binding::Kind::Alias, path);
  }
}

void Binder::assignment(TSNode n, Scope* s) {
  TSNode left = field(n, "left"), right = field(n, "right");
  if (ts_node_is_null(right)) {  // `x: T` alone binds in a function, not at run time at module
    visit(field(n, "type"), s);
    if (is(left, "identifier") && s != table_.module()) bindTargets(left, s);
    return;
  }
  visit(right, s);
  visit(field(n, "type"), s);
  // A target's own expressions (`a[i] = `, `f().x = `) are evaluated too.
  if (!is(left, "identifier")) visit(left, s);
  // `a = b = value`: right is an assignment whose value is the chain's end.
  TSNode value = right;
  while (is(value, "assignment")) value = field(value, "right");
  std::optional<Chain> chain;
  if (is(left, "identifier"))
    chain = chainOf(tree_, value, [](const std::string&, TSNode) { return true; });
  // `x = globals()["y"]` copies a value: x names no global.
  if (!chain || chain->globalsItem) {
    bindTargets(left, s);
    return;
  }
  LocalBinding b;
  b.kind = LocalBinding::Kind::Alias;
  b.value = value;
  Path target;
  target.names = chain->names;
  bind(s, std::string(tree_.text(left)), b, left, Binding::Kind::Alias, target);
}

std::vector<Param> Binder::parameters(TSNode params, Scope* outer, Scope* inner) {
  std::vector<Param> out;
  bool keywordOnly = false;
  for (TSNode p : namedChildren(params)) {
    Param param;
    TSNode name = p, type{}, value{};
    if (is(p, "typed_parameter")) {
      name = ts_node_named_child(p, 0);
      type = field(p, "type");
    } else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
      name = field(p, "name");
      type = field(p, "type");
      value = field(p, "value");
    }
    if (is(p, "keyword_separator")) {
      keywordOnly = true;
      continue;
    }
    if (is(p, "positional_separator")) {
      for (auto& q : out) q.kind = Param::Kind::PositionalOnly;
      continue;
    }
    param.kind = keywordOnly ? Param::Kind::KeywordOnly : Param::Kind::Positional;
    std::string prefix;
    if (is(name, "list_splat_pattern")) {
      param.kind = Param::Kind::VarArgs;
      keywordOnly = true;
      prefix = "*";
      name = ts_node_named_child(name, 0);
    } else if (is(name, "dictionary_splat_pattern")) {
      param.kind = Param::Kind::VarKeywords;
      prefix = "**";
      name = ts_node_named_child(name, 0);
    }
    if (!is(name, "identifier")) continue;
    param.name = prefix + std::string(tree_.text(name));
    if (!ts_node_is_null(type)) {
      param.annotation = tree_.text(type);
      visit(type, outer);
    }
    if (!ts_node_is_null(value)) {
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

void Binder::functionDef(TSNode n, Scope* s, const std::vector<std::string>& decorators) {
  std::string name(tree_.text(field(n, "name")));
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
  std::vector<Param> params = parameters(field(n, "parameters"), s, f);
  out_.functions[f->function].params = std::move(params);
  visit(field(n, "return_type"), s);
  names_.push_back(name);
  visit(field(n, "body"), f);
  names_.pop_back();
}

void Binder::classDef(TSNode n, Scope* s) {
  std::string name(tree_.text(field(n, "name")));
  bind(s, name, {}, n, Binding::Kind::Class);
  visit(field(n, "superclasses"), s);
  Scope* c = open(Scope::Kind::Class, s, n);
  c->classIndex = static_cast<int>(out_.classes.size());
  Class cls;
  cls.qualname = qualified(name);
  cls.line = lineOf(n);
  out_.classes.push_back(std::move(cls));
  names_.push_back(name);
  visit(field(n, "body"), c);
  names_.pop_back();
}

void Binder::lambda(TSNode n, Scope* s) {
  Scope* l = open(Scope::Kind::Lambda, s, n);
  if (TSNode p = field(n, "parameters"); !ts_node_is_null(p)) parameters(p, s, l);
  visit(field(n, "body"), l);
}

// The first iterable is evaluated where the comprehension is; the rest in its own scope.
void Binder::comprehension(TSNode n, Scope* s) {
  Scope* c = open(Scope::Kind::Comprehension, s, n);
  bool first = true;
  for (TSNode part : namedChildren(n)) {
    if (is(part, "for_in_clause")) {
      visit(field(part, "right"), first ? s : c);
      first = false;
      bindTargets(field(part, "left"), c);
    } else {
      visit(part, c);
    }
  }
}

void Binder::visit(TSNode n, Scope* s) {
  if (ts_node_is_null(n) || is(n, "comment") || is(n, "string_content")) return;
  if (is(n, "import_statement") || is(n, "import_from_statement")) return imports(n, s);
  if (is(n, "decorated_definition")) {
    std::vector<std::string> decorators;
    for (TSNode d : namedChildren(n)) {
      if (!is(d, "decorator")) continue;
      visit(d, s);
      decorators.emplace_back(tree_.text(ts_node_named_child(d, 0)));
    }
    TSNode def = field(n, "definition");
    if (is(def, "function_definition")) return functionDef(def, s, decorators);
    return visit(def, s);
  }
  if (is(n, "function_definition")) return functionDef(n, s, {});
  if (is(n, "class_definition")) return classDef(n, s);
  if (is(n, "lambda")) return lambda(n, s);
  if (isComprehension(n)) return comprehension(n, s);
  if (is(n, "assignment")) return assignment(n, s);
  if (is(n, "global_statement") || is(n, "nonlocal_statement")) {
    auto& set = is(n, "global_statement") ? s->globals : s->nonlocals;
    for (TSNode name : namedChildren(n)) set.emplace(tree_.text(name));
    return;
  }
  if (is(n, "named_expression")) {
    Scope* home = s;
    while (home->kind == Scope::Kind::Comprehension) home = home->parent;
    visit(field(n, "value"), s);
    return bindTargets(field(n, "name"), home);
  }
  if (is(n, "augmented_assignment") || is(n, "delete_statement")) {
    TSNode target = is(n, "delete_statement") ? ts_node_named_child(n, 0) : field(n, "left");
    bindTargets(target, s);
    return children(n, s);
  }
  if (is(n, "for_statement")) bindTargets(field(n, "left"), s);
  if (is(n, "as_pattern")) bindTargets(field(n, "alias"), s);
  children(n, s);
}

ScopeTable::ScopeTable(const SyntaxTree& tree, ModuleFacts& out) { Binder(tree, out, *this).run(); }

Scope* ScopeTable::opened(TSNode n) const {
  auto it = opened_.find(n.id);
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
