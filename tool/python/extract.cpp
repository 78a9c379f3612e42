#include "python/extract.h"

#include "python/attribute_copies.h"
#include "python/chains.h"
#include "python/dict_keys.h"
#include "python/guards.h"
#include "python/node.h"
#include "python/scopes.h"
#include "python/value_uses.h"
#include "support/file_io.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

namespace gridlock::python {
namespace {

bool isComprehension(Node n) {
  return is<"list_comprehension">(n) || is<"set_comprehension">(n) ||
         is<"dictionary_comprehension">(n) || is<"generator_expression">(n);
}

bool isPatternContainer(Node n) {
  return is<"pattern_list">(n) || is<"tuple_pattern">(n) || is<"list_pattern">(n) ||
         is<"list_splat_pattern">(n) || is<"expression_list">(n) || is<"tuple">(n) ||
         is<"list">(n) || is<"list_splat">(n) || is<"parenthesized_expression">(n) ||
         is<"as_pattern_target">(n);
}

// Pass two over a file: the references, calls and class bases, each in its scope.
class Collector {
 public:
  Collector(const SyntaxTree& tree, const ScopeTable& scopes, ModuleFacts& out)
      : tree_(tree), scopes_(scopes), out_(out) {}

  void run() {
    Context c{scopes_.module(), -1, -1, false};
    visit(tree_.flat().root(), c);
    finishFlows();
  }

 private:
  struct Context {
    Scope* scope;
    int function;  // the nearest def around
    int cls;       // the nearest class around
    bool inLambda;
  };

  bool builtin(const std::string& name, Scope* s) const { return !scopes_.lookup(s, name); }

  IsBuiltin builtinIn(Scope* s) const {
    return [this, s](const std::string& name, Node) { return builtin(name, s); };
  }

  std::vector<Path> targets(Scope* s, const Chain& chain, int depth = 0) const;
  void visit(Node n, Context c);
  void children(Node n, const Context& c) {
    for (Node child : namedChildren(n)) visit(child, c);
  }
  bool chain(Node n, const Context& c);
  void record(Node n, const Chain& chain, std::vector<Path> paths, const Context& c);
  Access accessOf() const;
  void call(Node n, const Context& c);
  bool ownClass(Node fn, const Context& c) const;
  void decorator(Node n, const Context& c);
  void decoratedClass(Node n, const Context& c);
  void seenKeys(Node value, const Context& c, Call::Arg& arg) const;
  Node openedDef(const Context& c) const;
  std::string forwarded(Node value, const Context& c, bool plain) const;
  int paramOf(const std::string& name, const Context& c) const;
  int onlyParamOf(const std::string& name, const Context& c) const;
  bool isSelf(Node n, const Context& c) const;
  void annotationTypes(Node n, Scope* s, std::vector<Path>& out, int depth = 0) const;
  void paramTypes(Node def, const Context& c, Scope* inner);
  void classField(Node n, const Context& c);
  bool typedReceiver(const Chain& chain, const Context& c, Call& call) const;
  void importRefs(Node stmt, const Context& c);
  void classBases(Node n, const Context& c);
  void scoped(Node n, const Context& c);

  // Names bound to a value the file follows (value_uses.h): a call's result (`x = f()`,
  // `a, b = f()`), a display (`LAYERS = [A, B]`), an item of a display name (`x = LAYERS[k]`),
  // by the scope that binds them, and where each is used other than followed.
  using Key = std::pair<Scope*, std::string>;
  enum class Flows { None, Result, Display, Pick };
  struct Flow {
    std::vector<HandedOn> escapes;
    std::vector<Key> into;  // a display's: the names bound to an item of it
  };
  Flows flowsOf(const LocalBinding& b, Scope* home) const;
  void flowUse(const Chain& ch, const Context& c);
  void finishFlows();
  std::vector<Path> displayed(Node name, Scope* from) const;
  std::vector<Path> picked(const std::string& name, Scope* from) const;
  std::vector<Call::Result> resultsOf(const std::string& name, Scope* from) const;
  HandedOn here(Handed how) const { return {lineOf(path_.back()), columnOf(path_.back()), how}; }

  const SyntaxTree& tree_;
  const ScopeTable& scopes_;
  ModuleFacts& out_;
  std::vector<Node> path_;  // from the module to the node being visited
  std::map<Key, Flow> flows_;
  std::vector<std::pair<size_t, Key>> elements_;  // Element refs (into refs) and their display
  std::unordered_map<uint32_t, size_t> callAt_;   // a call node's id -> its index into calls
};

Collector::Flows Collector::flowsOf(const LocalBinding& b, Scope* home) const {
  if (b.kind != LocalBinding::Kind::Other) return Flows::None;
  if (!b.unpacked.isNull()) return Flows::Result;
  Node v = unparen(b.value);
  if (is<"call">(v)) return Flows::Result;
  if (isDisplay(v)) return Flows::Display;
  if (is<"subscript">(v) && !displayed(unparen(field<"value">(v)), home).empty())
    return Flows::Pick;
  return Flows::None;
}

// A use of a name a chain is rooted at: followed when it is called (a call's result, an item
// of a display), or subscripted and called or bound to a name (a display); elsewhere its value
// is handed on.
void Collector::flowUse(const Chain& ch, const Context& c) {
  if (ch.globalsItem || accessOf() == Access::Write) return;
  Scope* home = scopes_.lookup(c.scope, ch.names[0]);
  if (!home) return;
  auto bindings = home->bindings.find(ch.names[0]);
  if (bindings == home->bindings.end()) return;
  bool result = false, display = false;
  for (const LocalBinding& b : bindings->second) {
    Flows f = flowsOf(b, home);
    result = result || f == Flows::Result || f == Flows::Pick;
    display = display || f == Flows::Display;
  }
  if (!result && !display) return;
  Node n = path_.back();
  Node parent = path_.size() >= 2 ? path_[path_.size() - 2] : Node();
  Node grand = path_.size() >= 3 ? path_[path_.size() - 3] : Node();
  Flow& flow = flows_[{home, ch.names[0]}];
  auto handed = [&](std::vector<Node> upTo) {
    if (is<"assignment">(upTo[upTo.size() - 2]) &&
        same(field<"right">(upTo[upTo.size() - 2]), upTo.back()))
      return flow.escapes.push_back(here(Handed::Stored));  // another name: not followed
    ValueContext v = valueContext(tree_, upTo, builtinIn(c.scope));
    if (v.use != ValueUse::None) flow.escapes.push_back(here(v.handed));
  };
  if (ch.names.size() > 1) {  // `Linear.build(...)`: an attribute, no value handed on;
    if (display) flow.escapes.push_back(here(Handed::Other));  // `LAYERS.items()` hands it on
    return;
  }
  if (is<"call">(parent) && same(field<"function">(parent), n)) return;  // called
  if (display && is<"subscript">(parent) && same(field<"value">(parent), n)) {
    if (is<"call">(grand) && same(field<"function">(grand), parent)) return;
    Node left = is<"assignment">(grand) && same(field<"right">(grand), parent)
                    ? field<"left">(grand)
                    : Node();
    if (is<"identifier">(left)) {
      std::string x(tree_.text(left));
      if (Scope* to = scopes_.lookup(c.scope, x)) return flow.into.push_back({to, x});
    }
    return handed(std::vector<Node>(path_.begin(), path_.end() - 1));
  }
  handed(path_);
}

// Where each followed value is handed on after all: a display's through the names bound to
// its items, an element's where its display is, a call's result where its names are.
void Collector::finishFlows() {
  for (bool grew = true; grew;) {
    grew = false;
    for (auto& [key, flow] : flows_)
      for (const Key& x : flow.into) {
        auto it = flows_.find(x);
        if (it == flows_.end()) continue;
        for (const HandedOn& h : it->second.escapes)
          if (std::find(flow.escapes.begin(), flow.escapes.end(), h) == flow.escapes.end()) {
            flow.escapes.push_back(h);
            grew = true;
          }
      }
  }
  for (const auto& [ref, key] : elements_)
    if (auto it = flows_.find(key); it != flows_.end())
      out_.refs[ref].handedOn = it->second.escapes;
  for (const auto& [key, flow] : flows_) {
    if (flow.escapes.empty()) continue;
    for (const LocalBinding& b : key.first->bindings.at(key.second)) {
      if (flowsOf(b, key.first) != Flows::Result) continue;
      Node call = b.unpacked.isNull() ? unparen(b.value) : b.unpacked;
      if (auto at = callAt_.find(call.id()); at != callAt_.end()) {
        auto& handed = out_.calls[at->second].resultHandedOn;
        handed.insert(handed.end(), flow.escapes.begin(), flow.escapes.end());
      }
    }
  }
}

// What a display bound to the name `name` (seen from `from`) holds: each element's paths.
std::vector<Path> Collector::displayed(Node name, Scope* from) const {
  std::vector<Path> out;
  if (!is<"identifier">(name)) return out;
  std::string n(tree_.text(name));
  Scope* home = scopes_.lookup(from, n);
  if (!home || !home->bindings.count(n)) return out;
  for (const LocalBinding& b : home->bindings.at(n)) {
    if (b.kind != LocalBinding::Kind::Other || !isDisplay(unparen(b.value))) continue;
    for (Node e : displayElements(unparen(b.value)))
      if (std::optional<Chain> ch = chainOf(tree_, e, builtinIn(home)))
        for (Path& p : targets(home, *ch))
          if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  }
  return out;
}

// What a name bound to an item of a display (`x = LAYERS[k]`) may hold.
std::vector<Path> Collector::picked(const std::string& name, Scope* from) const {
  std::vector<Path> out;
  Scope* home = scopes_.lookup(from, name);
  if (!home || !home->bindings.count(name)) return out;
  for (const LocalBinding& b : home->bindings.at(name)) {
    Node v = b.kind == LocalBinding::Kind::Other ? unparen(b.value) : Node();
    if (!is<"subscript">(v)) continue;
    for (Path& p : displayed(unparen(field<"value">(v)), home))
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  }
  return out;
}

// The calls whose results a name (seen from `from`) is bound to, with the element it takes.
std::vector<Call::Result> Collector::resultsOf(const std::string& name, Scope* from) const {
  std::vector<Call::Result> out;
  Scope* home = scopes_.lookup(from, name);
  if (!home || !home->bindings.count(name)) return out;
  for (const LocalBinding& b : home->bindings.at(name)) {
    if (flowsOf(b, home) != Flows::Result) continue;
    Node call = b.unpacked.isNull() ? unparen(b.value) : b.unpacked;
    std::optional<Chain> callee = chainOf(tree_, unparen(field<"function">(call)), builtinIn(home));
    if (!callee) continue;
    std::vector<Path> paths = targets(home, *callee);
    if (!paths.empty()) out.push_back({std::move(paths), b.unpacked.isNull() ? -1 : b.element});
  }
  return out;
}

// What a chain's root may name, its attributes appended: a module-level name is left for
// the whole program; a local alias or import is followed here.
std::vector<Path> Collector::targets(Scope* s, const Chain& chain, int depth) const {
  std::vector<Path> out;
  Scope* home = chain.globalsItem ? scopes_.module() : scopes_.lookup(s, chain.names[0]);
  // Unbound: a builtin, unless a star import may bind it, or, in a package's `__init__`, a
  // submodule an import has loaded into the package (the whole program knows its submodules).
  if (!home && out_.starImports.empty() && !out_.isPackage) return out;
  if (!home || home == scopes_.module()) {
    out.push_back(Path{true, 0, chain.names});
    return out;
  }
  if (depth > 8) return out;
  std::vector<std::string> rest(chain.names.begin() + 1, chain.names.end());
  for (const LocalBinding& b : home->bindings.at(chain.names[0])) {
    std::vector<Path> bases;
    if (b.kind == LocalBinding::Kind::Import) {
      bases.push_back(b.import);
    } else if (b.kind == LocalBinding::Kind::Alias) {
      if (std::optional<Chain> value = chainOf(tree_, b.value, builtinIn(home)))
        bases = targets(home, *value, depth + 1);
    }
    for (Path p : bases) {
      // An alias or an import holds the value its target had when it was bound.
      p.copy =
          p.copy || b.kind == LocalBinding::Kind::Alias || b.kind == LocalBinding::Kind::Import;
      p.names.insert(p.names.end(), rest.begin(), rest.end());
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    }
  }
  return out;
}

// Whether the node on top of the path is written: an assignment's, `for`'s, `with`'s or
// `del`'s target, or the object of an attribute or item that is (`ps._X.y = 1`, `_X[k] = v`).
Access Collector::accessOf() const {
  Node child = path_.back();
  for (size_t i = path_.size() - 1; i-- > 0;) {
    Node p = path_[i];
    bool through = (is<"subscript">(p) && same(child, field<"value">(p))) ||
                   (is<"attribute">(p) && same(child, field<"object">(p))) || isPatternContainer(p);
    if (!through) {
      bool target = ((is<"assignment">(p) || is<"augmented_assignment">(p) ||
                      is<"for_statement">(p) || is<"for_in_clause">(p)) &&
                     same(child, field<"left">(p))) ||
                    is<"delete_statement">(p);
      return target ? Access::Write : Access::Read;
    }
    child = p;
  }
  return Access::Read;
}

// Where a reference is (the expression `whole`, its bytes and lines) and what encloses it.
void placeRef(Ref& r, Node whole, const auto& c) {
  r.offset = whole.startByte();
  r.length = whole.endByte() - r.offset;
  r.line = lineOf(whole);
  r.column = columnOf(whole);
  r.endLine = whole.endPoint().row + 1;
  r.endColumn = whole.endPoint().column + 1;
  r.function = c.function;
  r.classIndex = c.cls;
  r.inLambda = c.inLambda;
}

void Collector::record(Node n, const Chain& chain, std::vector<Path> paths, const Context& c) {
  Ref r;
  r.targets = std::move(paths);
  for (Node part : chain.nodes) r.parts.push_back({lineOf(part), columnOf(part)});
  r.access = accessOf();
  // A name assigned binds it: only a module's name assigned in a function (under `global`)
  // is a write of its state.
  if (r.access == Access::Write && chain.names.size() == 1 && !chain.globalsItem &&
      (c.scope == scopes_.module() || scopes_.lookup(c.scope, chain.names[0]) != scopes_.module()))
    return;
  Node whole = n;
  if (path_.size() >= 2) {
    Node parent = path_[path_.size() - 2];
    r.aliasDefinition = is<"assignment">(parent) && same(field<"right">(parent), n) &&
                        is<"identifier">(field<"left">(parent)) &&
                        c.scope->kind != Scope::Kind::Class && !chain.globalsItem;
    if (is<"call">(parent) && same(field<"function">(parent), n)) {
      r.called = true;
      whole = parent;
      for (Node a : namedChildren(field<"arguments">(parent)))
        r.arguments.emplace_back(tree_.text(a));
    }
  }
  placeRef(r, whole, c);
  if (!r.called && !r.aliasDefinition && r.access == Access::Read) {
    ValueContext v = valueContext(tree_, path_, builtinIn(c.scope));
    r.use = v.use;
    r.handed = v.handed;
    r.element = v.element;
    if (v.use == ValueUse::Element) {
      std::string name(tree_.text(v.boundTo));
      Scope* home = scopes_.lookup(c.scope, name);
      if (home) elements_.push_back({out_.refs.size(), {home, name}});
      if (home == scopes_.module()) r.container = name;
    }
  }
  if (r.access == Access::Read) {
    Conditions conditions = conditionsOf(tree_, path_);
    for (GuardCandidate& g : conditions.guards) {
      int param = g.holder.find('.') == std::string::npos ? paramOf(g.holder, c) : -1;
      r.guards.push_back(
          {std::move(g.holder), param, g.at, g.presence, g.flows, std::move(g.others)});
    }
    if (!r.guards.empty())
      for (const NameTest& t : conditions.tests)
        if (int param = onlyParamOf(t.name, c); param >= 0) r.tests.push_back({param, t.expect});
  }
  r.statementLine = r.parts.empty() ? r.line : r.parts[0].line;
  for (size_t i = path_.size(); i-- > 1;)
    if (is<"block">(path_[i - 1]) || is<"module">(path_[i - 1])) {
      r.statementLine = std::min(r.statementLine, lineOf(path_[i]));
      break;
    }
  out_.refs.push_back(std::move(r));
}

// `from m import x [as y]`: a reference to m.x for each imported name, where it is written.
// The import copies the value m.x holds when it runs: module state imported so is read there,
// once, and the bound name's uses read the copy (Path::copy); an accessor imported so is the
// value of an alias (Ref::aliasDefinition), read where it is called.
void Collector::importRefs(Node stmt, const Context& c) {
  std::vector<Node> written;
  std::vector<std::pair<std::string, Path>> bound = importBindings(tree_, stmt, &written);
  for (size_t i = 0; i < bound.size() && i < written.size(); ++i) {
    Node n = written[i];
    Ref r;
    r.targets = {bound[i].second};
    r.parts = {{lineOf(n), columnOf(n)}};
    r.aliasDefinition = true;
    placeRef(r, n, c);
    r.statementLine = lineOf(stmt);
    out_.imports.push_back(std::move(r));
  }
}

// A chain at `n` (on top of the path): recorded when its root is a module-level name, an
// import or an alias; true when `n` was a chain (its own names are not visited again).
bool Collector::chain(Node n, const Context& c) {
  std::optional<Chain> ch = chainOf(tree_, n, builtinIn(c.scope));
  if (!ch) return false;
  flowUse(*ch, c);
  std::vector<Path> paths = targets(c.scope, *ch);
  if (!paths.empty()) record(n, *ch, std::move(paths), c);
  // getattr's default and the like are code of their own.
  if (is<"call">(unparen(n))) {
    NodeList args = namedChildren(field<"arguments">(unparen(n)));
    if (args.size() == 3) visit(args[2], c);
  }
  return true;
}

// The parameter of the enclosing def that `name` is there, or -1.
int Collector::paramOf(const std::string& name, const Context& c) const {
  if (c.function < 0) return -1;
  Scope* home = scopes_.lookup(c.scope, name);
  if (!home || home->function != c.function) return -1;
  for (const LocalBinding& b : home->bindings.at(name))
    if (b.kind == LocalBinding::Kind::Param) return b.param;
  return -1;
}

// The parameter `name` is, when the def binds it nowhere else: a test of it tests what the
// call passed.
int Collector::onlyParamOf(const std::string& name, const Context& c) const {
  int param = paramOf(name, c);
  if (param < 0) return -1;
  for (const LocalBinding& b : scopes_.lookup(c.scope, name)->bindings.at(name))
    if (b.kind != LocalBinding::Kind::Param) return -1;
  return param;
}

// `self` (or `cls`) of the enclosing method: its first parameter.
bool Collector::isSelf(Node n, const Context& c) const {
  if (!is<"identifier">(n) || c.function < 0) return false;
  const Function& f = out_.functions[c.function];
  return f.classIndex >= 0 && !f.isStatic && paramOf(std::string(tree_.text(n)), c) == 0;
}

// What an annotation may name, as written in scope `s` (a class body or a def's outer scope):
// `T` and `a.T` (a string of one: `"a.T"`), and the members of `Optional[...]`,
// `Union[...]` and `A | B`, by the name's last part (`typing.Optional` too). None, and what no
// dotted name spells (`List[T]`, `Callable[...]`), name nothing.
void Collector::annotationTypes(Node n, Scope* s, std::vector<Path>& out, int depth) const {
  n = unparen(n);
  if (n.isNull() || depth > 16 || is<"none">(n)) return;
  auto recurse = [&](Node part) { annotationTypes(part, s, out, depth + 1); };
  std::optional<Chain> chain;
  if (is<"type">(n) || is<"union_type">(n)) {
    for (Node part : namedChildren(n)) recurse(part);
    return;
  }
  if (is<"binary_operator">(n)) {
    if (tree_.text(field<"operator">(n)) == "|") {
      recurse(field<"left">(n));
      recurse(field<"right">(n));
    }
    return;
  }
  if (is<"generic_type">(n) || is<"subscript">(n)) {
    // generic_type: an identifier and a type_parameter; subscript: `value[subscript, ...]`.
    NodeList parts = namedChildren(n);
    if (parts.empty()) return;
    std::optional<Chain> name =
        chainOf(tree_, is<"subscript">(n) ? field<"value">(n) : parts[0], builtinIn(s));
    if (!name || (name->names.back() != "Optional" && name->names.back() != "Union")) return;
    for (size_t i = 1; i < parts.size(); ++i) {
      if (is<"type_parameter">(parts[i]))
        for (Node member : namedChildren(parts[i])) recurse(member);
      else
        recurse(parts[i]);
    }
    return;
  }
  if (is<"member_type">(n)) {  // `a.T` as the grammar reads a type: a type, then a name
    NodeList parts = namedChildren(n);
    std::vector<Path> inner;
    if (parts.size() != 2 || !is<"identifier">(parts[1])) return;
    annotationTypes(parts[0], s, inner, depth + 1);
    for (Path& p : inner) {
      p.names.emplace_back(tree_.text(parts[1]));
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    }
    return;
  }
  if (is<"string">(n)) {
    std::optional<std::string> text = literalString(tree_, n);
    if (!text || text->empty()) return;
    Chain written;
    size_t start = 0;
    for (size_t dot; start <= text->size(); start = dot + 1) {
      dot = std::min(text->find('.', start), text->size());
      std::string part = text->substr(start, dot - start);
      bool identifier = !part.empty() && !std::isdigit(static_cast<unsigned char>(part[0])) &&
                        std::all_of(part.begin(), part.end(), [](char ch) {
                          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                        });
      if (!identifier) return;
      written.names.push_back(std::move(part));
      written.nodes.push_back(n);
    }
    if (written.names.size() == 1 && written.names[0] == "None") return;
    chain = std::move(written);
  } else {
    chain = chainOf(tree_, n, builtinIn(s));
  }
  if (!chain || chain->globalsItem) return;
  for (Path& p : targets(s, *chain))
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
}

// Each annotated parameter's types (Param::types), as the def's outer scope names them.
void Collector::paramTypes(Node def, const Context& c, Scope* inner) {
  std::vector<Param>& params = out_.functions[inner->function].params;
  for (Node p : namedChildren(field<"parameters">(def))) {
    Node type = field<"type">(p);
    if (type.isNull()) continue;
    Node name = is<"typed_parameter">(p) ? p.namedChild(0) : field<"name">(p);
    if (!is<"identifier">(name)) continue;  // `*args: T` types each argument, not args
    for (Param& param : params)
      if (param.name == tree_.text(name)) annotationTypes(type, c.scope, param.types);
  }
}

// An assignment in a class body (on top of the path): a name the class binds, with its
// annotation's types (Class::fields).
void Collector::classField(Node n, const Context& c) {
  Node left = field<"left">(n), type = field<"type">(n);
  if (!is<"identifier">(left)) return;
  Class::Field f;
  f.name = tree_.text(left);
  f.annotated = !type.isNull();
  if (f.annotated) annotationTypes(type, c.scope, f.types);
  out_.classes[c.scope->classIndex].fields.push_back(std::move(f));
}

// `p.f.m(...)` (one attribute or more before the method) with p a parameter of the enclosing
// def and nothing else binding p there: the receiver the whole program types through the
// fields' annotations (Call::receiverParam).
bool Collector::typedReceiver(const Chain& chain, const Context& c, Call& call) const {
  if (chain.globalsItem || chain.names.size() < 3 || c.function < 0) return false;
  Scope* home = scopes_.lookup(c.scope, chain.names[0]);
  if (!home || home->function != c.function) return false;
  const std::vector<LocalBinding>& bindings = home->bindings.at(chain.names[0]);
  if (bindings.size() != 1 || bindings[0].kind != LocalBinding::Kind::Param) return false;
  call.receiverParam = bindings[0].param;
  call.fields.assign(chain.names.begin() + 1, chain.names.end() - 1);
  call.member = chain.names.back();
  return true;
}

// The def whose own scope (not a lambda's or comprehension's inside it) the node on top of the
// path is in, or null.
Node Collector::openedDef(const Context& c) const {
  if (c.scope == scopes_.module() || c.scope->kind != Scope::Kind::Function) return Node();
  Node opened;
  for (size_t i = path_.size(); i-- > 0 && opened.isNull();)
    if (is<"function_definition">(path_[i])) opened = path_[i];
  return scopes_.opened(opened) == c.scope ? opened : Node();  // else a default of a def inside
}

// The parameter an argument's value forwards: the parameter itself, or `self.x` a copy of it
// (attribute_copies.h) when passed plainly, not as `*` or `**`; "" when none.
std::string Collector::forwarded(Node value, const Context& c, bool plain) const {
  if (is<"identifier">(value) && paramOf(std::string(tree_.text(value)), c) >= 0)
    return std::string(tree_.text(value));
  Node def = openedDef(c);
  if (!plain || !is<"attribute">(value) || def.isNull() || !isSelf(field<"object">(value), c))
    return "";
  auto isParam = [&](const std::string& name) { return paramOf(name, c) >= 0; };
  return copiedParameter(tree_, field<"body">(def), value,
                         out_.functions[c.function].params[0].name, isParam);
}

// `**value`: the keys it is seen to hold (dict_keys.h).
void Collector::seenKeys(Node value, const Context& c, Call::Arg& arg) const {
  // the def or module whose scope the call is in
  Node opened = c.scope == scopes_.module() ? tree_.flat().root() : openedDef(c);
  auto isParam = [&](const std::string& name) { return paramOf(name, c) >= 0; };
  if (std::optional<SeenKeys> seen = dictKeys(tree_, scopes_, c.scope, opened, value, isParam)) {
    arg.keys = std::move(seen->keys);
    arg.keysComplete = seen->complete;
  }
}

void Collector::call(Node n, const Context& c) {
  Node fn = unparen(field<"function">(n));
  Node args = field<"arguments">(n);
  if (!is<"argument_list">(args)) return;  // f(x for x in y)
  Call call;
  Node name = fn;
  call.ownClass = ownClass(fn, c);
  if (call.ownClass) {
    if (is<"attribute">(fn)) name = field<"attribute">(fn);
  } else if (is<"attribute">(fn)) {
    Node object = unparen(field<"object">(fn)), super = field<"function">(object);
    name = field<"attribute">(fn);
    if (is<"call">(object) && is<"identifier">(super) && tree_.text(super) == "super" &&
        builtin("super", c.scope)) {
      call.member = tree_.text(name);
      call.viaSuper = true;
    } else if (isSelf(object, c)) {
      call.member = tree_.text(name);
    }
  }
  if (call.member.empty() && !call.ownClass) {
    std::optional<Chain> ch = chainOf(tree_, fn, builtinIn(c.scope));
    if (ch) {
      call.callee = targets(c.scope, *ch);
      if (!ch->globalsItem && ch->names.size() == 1) {
        // A name bound to a call's result, or to an item of a display (value_uses.h).
        call.results = resultsOf(ch->names[0], c.scope);
        for (Path& p : picked(ch->names[0], c.scope))
          if (std::find(call.callee.begin(), call.callee.end(), p) == call.callee.end())
            call.callee.push_back(std::move(p));
      }
      if (call.callee.empty() && call.results.empty() && !typedReceiver(*ch, c, call)) return;
    } else if (is<"call">(fn)) {  // `get_linear(kind)(x)`: what it returns, called at once
      std::optional<Chain> inner =
          chainOf(tree_, unparen(field<"function">(fn)), builtinIn(c.scope));
      std::vector<Path> paths = inner ? targets(c.scope, *inner) : std::vector<Path>{};
      if (paths.empty()) return;
      call.results.push_back({std::move(paths), -1});
    } else if (is<"subscript">(fn)) {  // `LAYERS[kind](x)`: what the display holds
      Node value = unparen(field<"value">(fn));
      call.callee = displayed(value, c.scope);
      if (call.callee.empty())  // another module's display, found by the whole program
        if (std::optional<Chain> ch = chainOf(tree_, value, builtinIn(c.scope)))
          call.itemOf = targets(c.scope, *ch);
      if (call.callee.empty() && call.itemOf.empty()) return;
    } else {
      return;
    }
  }
  for (Node a : namedChildren(args)) {
    Call::Arg arg;
    Node value = a;
    if (is<"keyword_argument">(a)) {
      arg.keyword = tree_.text(field<"name">(a));
      value = field<"value">(a);
    } else if (is<"list_splat">(a) || is<"dictionary_splat">(a)) {
      arg.kind = is<"list_splat">(a) ? Call::Arg::Kind::Star : Call::Arg::Kind::DoubleStar;
      value = a.namedChild(0);
      if (arg.kind == Call::Arg::Kind::DoubleStar) seenKeys(value, c, arg);
    }
    value = unparen(value);
    arg.isNone = is<"none">(value);
    arg.forwardedName = forwarded(value, c, arg.kind == Call::Arg::Kind::Plain);
    arg.offset = a.startByte();
    arg.length = a.endByte() - arg.offset;
    if (call.args.empty() && arg.kind == Call::Arg::Kind::Plain && arg.keyword.empty())
      if (std::optional<Chain> ch = chainOf(tree_, value, builtinIn(c.scope)))
        call.firstArg = targets(c.scope, *ch);
    call.args.push_back(std::move(arg));
  }
  call.function = c.function;
  call.line = lineOf(name);
  call.column = columnOf(name);
  call.rparen = args.endByte() - 1;
  Handed how = Handed::Other;
  if (resultGoes(tree_, path_, builtinIn(c.scope), &how) == ResultGoes::HandedOn)
    call.resultHandedOn.push_back({call.line, call.column, how});
  callAt_[n.id()] = out_.calls.size();
  out_.calls.push_back(std::move(call));
}

// `cls(...)` in a classmethod, `type(self)(...)` or `self.__class__(...)` in a method: the
// enclosing class or a class below it, built (Call::ownClass).
bool Collector::ownClass(Node fn, const Context& c) const {
  if (c.function < 0) return false;
  const Function& f = out_.functions[c.function];
  if (is<"identifier">(fn)) return f.isClassMethod && isSelf(fn, c);
  if (f.isClassMethod) return false;  // `type(cls)`, `cls.__class__`: its metaclass
  if (is<"attribute">(fn))
    return tree_.text(field<"attribute">(fn)) == "__class__" &&
           isSelf(unparen(field<"object">(fn)), c);
  if (!is<"call">(fn)) return false;
  Node type = unparen(field<"function">(fn));
  NodeList args = namedChildren(field<"arguments">(fn));
  return is<"identifier">(type) && tree_.text(type) == "type" && builtin("type", c.scope) &&
         args.size() == 1 && isSelf(unparen(args[0]), c);
}

// `@C` or `@f` above a def or class: a call of what it names with the definition, which writes
// no argument list (rparen 0: nothing to add an argument to).
void Collector::decorator(Node n, const Context& c) {
  Node e = unparen(n.namedChild(0));
  if (!is<"identifier">(e) && !is<"attribute">(e)) return;  // `@f(x)` is a call of its own
  std::optional<Chain> ch = chainOf(tree_, e, builtinIn(c.scope));
  if (!ch || ch->globalsItem) return;
  Call call;
  call.callee = targets(c.scope, *ch);
  if (call.callee.empty()) return;
  call.args.emplace_back();  // the definition, positionally
  call.function = c.function;
  Node name = is<"attribute">(e) ? field<"attribute">(e) : e;
  call.line = lineOf(name);
  call.column = columnOf(name);
  out_.calls.push_back(std::move(call));
}

// A class given to a decorator that may keep it, or build something else in its place: each
// such decorator is a place the class escapes (Class::decorated). The standard library's that
// return the class they are given and keep nothing are not.
void Collector::decoratedClass(Node n, const Context& c) {
  Scope* cls = scopes_.opened(field<"definition">(n));
  if (!is<"class_definition">(field<"definition">(n)) || !cls) return;
  static const std::set<std::string> kKeepNothing = {"dataclasses.dataclass",
                                                     "functools.total_ordering",
                                                     "typing.final",
                                                     "typing_extensions.final",
                                                     "typing.runtime_checkable",
                                                     "enum.unique",
                                                     "typing_extensions.runtime_checkable"};
  for (Node d : namedChildren(n)) {
    if (!is<"decorator">(d)) continue;
    Node e = unparen(d.namedChild(0));
    if (is<"call">(e)) e = unparen(field<"function">(e));  // `@dataclass(frozen=True)`
    bool keepsNothing = false;
    if (std::optional<Chain> ch = chainOf(tree_, e, builtinIn(c.scope))) {
      std::vector<Path> paths = targets(c.scope, *ch);
      keepsNothing = !paths.empty();
      for (const Path& p : paths) {
        std::string dotted;
        for (const std::string& part : p.names) dotted += (dotted.empty() ? "" : ".") + part;
        keepsNothing = keepsNothing && p.level == 0 && kKeepNothing.count(dotted);
      }
    }
    if (!keepsNothing)
      out_.classes[cls->classIndex].decorated.push_back(
          {lineOf(d.namedChild(0)), columnOf(d.namedChild(0)), Handed::Decorator});
  }
}

void Collector::classBases(Node n, const Context& c) {
  Scope* cls = scopes_.opened(n);
  if (!cls) return;
  for (Node base : namedChildren(field<"superclasses">(n))) {
    if (is<"keyword_argument">(base) || is<"list_splat">(base) || is<"dictionary_splat">(base))
      continue;
    std::vector<Path> paths;
    if (std::optional<Chain> ch = chainOf(tree_, base, builtinIn(c.scope)))
      paths = targets(c.scope, *ch);
    out_.classes[cls->classIndex].bases.push_back(std::move(paths));
  }
}

// A def, class, lambda or comprehension: its parts, each in the scope it is evaluated in.
void Collector::scoped(Node n, const Context& c) {
  Scope* inner = scopes_.opened(n);
  if (!inner) return;
  Context in = c;
  in.scope = inner;
  if (is<"function_definition">(n)) {
    for (Node p : namedChildren(field<"parameters">(n))) {
      visit(field<"type">(p), c);
      visit(field<"value">(p), c);
    }
    visit(field<"return_type">(n), c);
    paramTypes(n, c, inner);
    in.function = inner->function;
    in.inLambda = false;
    visit(field<"body">(n), in);
  } else if (is<"class_definition">(n)) {
    classBases(n, c);
    for (Node base : namedChildren(field<"superclasses">(n))) visit(base, c);
    in.cls = inner->classIndex;
    in.function = -1;
    in.inLambda = false;
    visit(field<"body">(n), in);
  } else if (is<"lambda">(n)) {
    for (Node p : namedChildren(field<"parameters">(n))) visit(field<"value">(p), c);
    in.inLambda = true;
    visit(field<"body">(n), in);
  } else {
    bool first = true;
    for (Node part : namedChildren(n)) {
      if (is<"for_in_clause">(part)) {
        visit(field<"right">(part), first ? c : in);
        first = false;
      } else {
        visit(part, in);
      }
    }
  }
}

void Collector::visit(Node n, Context c) {
  if (n.isNull()) return;
  path_.push_back(n);
  if (is<"import_from_statement">(n)) {
    importRefs(n, c);
  } else if (is<"comment">(n) || is<"string_content">(n) || is<"import_statement">(n) ||
             is<"future_import_statement">(n) || is<"global_statement">(n) ||
             is<"nonlocal_statement">(n) || is<"case_pattern">(n) || is<"dotted_name">(n) ||
             is<"parameters">(n) || is<"lambda_parameters">(n)) {
    // Nothing read: names as declared, not as used.
  } else if (is<"function_definition">(n) || is<"class_definition">(n) || is<"lambda">(n) ||
             isComprehension(n)) {
    scoped(n, c);
  } else if (is<"keyword_argument">(n)) {
    visit(field<"value">(n), c);
  } else if (!chain(n, c)) {
    if (is<"assignment">(n) && c.scope->kind == Scope::Kind::Class) classField(n, c);
    if (is<"call">(n)) call(n, c);
    if (is<"decorator">(n)) decorator(n, c);
    if (is<"decorated_definition">(n)) decoratedClass(n, c);
    if (is<"attribute">(n))
      visit(field<"object">(n), c);  // `f().x`: x is no name of its own
    else
      children(n, c);
  }
  path_.pop_back();
}

// The comments that may be allows (they mention `gridlock:`), each with whether code comes
// before it on its line. Only a file whose bytes hold the word is looked through.
void collectAllows(const SyntaxTree& tree, ModuleFacts& out) {
  const std::string& src = tree.source();
  if (src.find("gridlock:") == std::string::npos) return;
  const FlatTree& nodes = tree.flat();
  for (size_t i = 0; i < nodes.size(); ++i) {  // in source order
    Node n = nodes.at(i);
    if (!is<"comment">(n)) continue;
    std::string_view text = tree.text(n);
    size_t start = n.startByte();
    size_t bol = start == 0 ? std::string::npos : src.rfind('\n', start - 1);
    bol = bol == std::string::npos ? 0 : bol + 1;
    bool alone = src.find_first_not_of(" \t", bol) >= start;
    if (text.find("gridlock:") != std::string_view::npos)
      out.allows.push_back(
          {lineOf(n), static_cast<unsigned>(start - bol) + 1, alone, std::string(text)});
  }
}

}  // namespace

ModuleFacts extractModule(const std::string& file, std::string source) {
  ModuleFacts out;
  out.file = file;
  out.digest = support::md5Hex(source);
  size_t slash = file.rfind('/');
  out.isPackage = file.substr(slash == std::string::npos ? 0 : slash + 1) == "__init__.py";
  SyntaxTree tree = SyntaxTree::parse(std::move(source));
  out.errors = tree.errors(file);
  ScopeTable scopes(tree, out);
  Collector(tree, scopes, out).run();
  collectAllows(tree, out);
  return out;
}

}  // namespace gridlock::python
