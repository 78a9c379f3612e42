#include "python/module_program.h"

#include "python/module_reads.h"

#include <algorithm>

namespace gridlock::python {
namespace {

constexpr int kMaxBaseDepth = 32;

bool positional(Param::Kind k) {
  return k == Param::Kind::Positional || k == Param::Kind::PositionalOnly;
}

// The caller's parameter a forwarded argument is (`*args` matches "args"), or -1.
int callerParam(const Function* caller, const std::string& name) {
  if (!caller || name.empty()) return -1;
  for (size_t i = 0; i < caller->params.size(); ++i) {
    const std::string& p = caller->params[i].name;
    if (p.substr(p.find_first_not_of('*')) == name) return static_cast<int>(i);
  }
  return -1;
}

facts::Passed passedAs(const Call::Arg& a) {
  if (a.kind == Call::Arg::Kind::Star) return facts::Passed::StarArgs;
  if (a.kind == Call::Arg::Kind::DoubleStar) return facts::Passed::StarKwargs;
  return a.keyword.empty() ? facts::Passed::Positional : facts::Passed::Keyword;
}

// How one argument supplies a parameter: None, forwarded from the caller's own parameter, or
// a value of its own.
facts::ArgFact supplied(const Call::Arg& a, const Function* caller) {
  facts::ArgFact f;
  f.passed = passedAs(a);
  f.offset = a.offset;
  f.length = a.length;
  f.insertAt = a.offset;
  if (a.isNone) {
    f.supplied = facts::Supplied::Null;
  } else if (int from = callerParam(caller, a.forwardedName); from >= 0) {
    f.supplied = facts::Supplied::Forwarded;
    f.forwardedFrom = from;
  }
  return f;
}

// Python's binding of `args` to the callee's parameters, the first `skip` (self, cls) bound
// already.
std::vector<facts::ArgFact> bind(const Function& callee, size_t skip,
                                 const std::vector<Call::Arg>& args, const Function* caller) {
  const auto& params = callee.params;
  std::vector<facts::ArgFact> out(params.size());
  std::vector<bool> bound(params.size(), false);
  for (size_t i = 0; i < skip && i < params.size(); ++i) bound[i] = true;
  auto find = [&](auto pred) -> int {
    for (size_t i = 0; i < params.size(); ++i)
      if (pred(params[i], i)) return static_cast<int>(i);
    return -1;
  };
  auto give = [&](int i, const Call::Arg& a) {
    if (i < 0) return;
    // Bound already (positionally, then by keyword): Python raises a TypeError.
    if (bound[i]) {
      bool many =
          params[i].kind == Param::Kind::VarArgs || params[i].kind == Param::Kind::VarKeywords;
      if (i >= static_cast<int>(skip) && !many) out[i].passed = facts::Passed::Twice;
      return;
    }
    out[i] = supplied(a, caller);
    bound[i] = true;
  };
  auto byKeyword = [&](const Call::Arg& a) {
    int i = find([&](const Param& p, size_t) {
      return p.name == a.keyword &&
             (p.kind == Param::Kind::Positional || p.kind == Param::Kind::KeywordOnly);
    });
    if (i < 0) i = find([](const Param& p, size_t) { return p.kind == Param::Kind::VarKeywords; });
    return i;
  };
  const Call::Arg *star = nullptr, *doubleStar = nullptr;
  size_t next = skip;
  for (const Call::Arg& a : args) {
    if (a.kind == Call::Arg::Kind::Star) {
      star = &a;
    } else if (a.kind == Call::Arg::Kind::DoubleStar) {
      // The keys it is seen to hold are keyword arguments; a dict with no others carries
      // nothing more.
      for (const Call::DictKey& k : a.keys) {
        Call::Arg key;
        key.keyword = k.name;
        key.isNone = k.isNone;
        key.forwardedName = k.forwardedName;
        int i = byKeyword(key);
        give(i, key);
        if (i >= 0 && out[i].passed == facts::Passed::Keyword)
          out[i].passed = facts::Passed::StarKwargsKey;
      }
      if (!a.keysComplete) doubleStar = &a;
    } else if (a.keyword.empty()) {
      while (next < params.size() && positional(params[next].kind) && bound[next]) ++next;
      if (next < params.size() && positional(params[next].kind))
        give(static_cast<int>(next++), a);
      else
        give(find([](const Param& p, size_t) { return p.kind == Param::Kind::VarArgs; }), a);
    } else {
      give(byKeyword(a), a);
    }
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (bound[i]) continue;
    const Param& p = params[i];
    // Both `*args` and `**kwargs` may carry a parameter both could take: a parameter with a
    // default is taken to come by keyword (`tp_group=...`), one without positionally.
    bool canStar = star && (positional(p.kind) || p.kind == Param::Kind::VarArgs);
    bool canDoubleStar =
        doubleStar && p.kind != Param::Kind::PositionalOnly && p.kind != Param::Kind::VarArgs;
    bool byStar = canStar && !(canDoubleStar && p.hasDefault);
    bool byDoubleStar = canDoubleStar && !byStar;
    if (byStar || byDoubleStar) {
      out[i] = supplied(byStar ? *star : *doubleStar, caller);
      out[i].offset = out[i].length = out[i].insertAt = 0;  // not written for this parameter
      // Both may carry it: the caller's callers leave it out only when they fill neither.
      if (canStar && canDoubleStar && out[i].supplied == facts::Supplied::Forwarded) {
        facts::ArgFact other = supplied(byStar ? *doubleStar : *star, caller);
        if (other.supplied == facts::Supplied::Forwarded)
          out[i].forwardedAlso = other.forwardedFrom;
      }
    } else {
      out[i].passed = facts::Passed::Omitted;
      if (p.hasDefault || p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::VarKeywords)
        out[i].supplied = facts::Supplied::Default;
    }
  }
  return out;
}

facts::FunctionFact functionFact(const Definitions& defs, size_t module, const Function& f) {
  const ModuleFacts& m = defs.modules()[module];
  facts::FunctionFact out;
  out.name = qualifiedName(defs.index(), module, f.qualname);
  out.usr = usrOf(out.name);
  out.isStatic = f.isStatic;
  out.file = m.file;
  out.line = f.line;
  for (const Param& p : f.params)
    out.params.push_back({p.name, p.annotation, p.hasDefault, p.defaultText});
  if (f.classIndex < 0) return out;
  Definitions::Item cls{module, static_cast<size_t>(f.classIndex)};
  out.classUsr = usrOf(qualifiedName(defs.index(), module, m.classes[cls.index].qualname));
  std::string name = f.qualname.substr(f.qualname.rfind('.') + 1);
  out.isConstructor = name == "__init__";
  out.isVirtual = !out.isConstructor && !f.isStatic;
  // A method overrides its bases' of the same name (a constructor does not: constructing a
  // base does not construct a subclass).
  if (out.isVirtual)
    for (Definitions::Item base : defs.bases(cls))
      if (auto over = defs.method(base, name)) {
        const Function& o = defs.modules()[over->module].functions[over->index];
        out.overrides.push_back(usrOf(qualifiedName(defs.index(), over->module, o.qualname)));
      }
  return out;
}

facts::ClassFact classFact(const Definitions& defs, size_t module, const Class& c) {
  facts::ClassFact out;
  out.name = qualifiedName(defs.index(), module, c.qualname);
  out.usr = usrOf(out.name);
  out.file = defs.modules()[module].file;
  out.line = c.line;
  for (const auto& base : c.bases)
    for (const Path& p : base) {
      std::vector<std::string> names = defs.index().resolve(module, p);
      if (!names.empty()) {
        out.bases.push_back(usrOf(names.front()));
        break;
      }
    }
  return out;
}

// What a call reaches: the function, how, the class it constructs, and the arguments bound
// implicitly (self, cls) or by a partial.
struct Target {
  Definitions::Item fn;
  facts::Via via = facts::Via::Call;
  std::string classUsr;
  size_t skip = 0;
  size_t dropArgs = 0;  // functools.partial(f, ...): its first argument is f
};

bool sameItem(Definitions::Item a, Definitions::Item b) {
  return a.module == b.module && a.index == b.index;
}

std::optional<Target> reachable(const Definitions& defs, const std::string& name) {
  std::optional<Definitions::Item> f = defs.function(name);
  if (!f)
    if (auto c = defs.cls(name)) {
      if (auto init = defs.method(*c, "__init__"))
        return Target{*init, facts::Via::Direct, usrOf(name), 1, 0};
      return std::nullopt;
    }
  // `C.m(...)` with m one C inherits: called through the class, unbound as m's own name is.
  if (size_t dot = name.rfind('.'); !f && dot != std::string::npos)
    if (auto c = defs.cls(name.substr(0, dot))) f = defs.method(*c, name.substr(dot + 1));
  if (!f) return std::nullopt;
  const Function& fn = defs.modules()[f->module].functions[f->index];
  return Target{*f, facts::Via::Call, "", fn.isClassMethod ? 1u : 0u, 0};
}

// `cls(...)`, `type(self)(...)`: the enclosing class or one below it is built, each running
// the __init__ it has (its own or inherited): a target for each such __init__, named by the
// nearest class that runs it.
std::vector<Target> ownClassTargets(const Definitions& defs, size_t module, const Call& call) {
  const ModuleFacts& m = defs.modules()[module];
  if (call.function < 0 || m.functions[call.function].classIndex < 0) return {};
  Definitions::Item cls{module, static_cast<size_t>(m.functions[call.function].classIndex)};
  std::vector<Definitions::Item> classes{cls};
  for (Definitions::Item c : defs.below(cls)) classes.push_back(c);
  std::vector<Target> out;
  for (Definitions::Item c : classes) {
    std::optional<Definitions::Item> init = defs.method(c, "__init__");
    if (!init ||
        std::any_of(out.begin(), out.end(), [&](const Target& t) { return sameItem(t.fn, *init); }))
      continue;
    const ModuleFacts& home = defs.modules()[c.module];
    out.push_back(
        Target{*init, facts::Via::Direct,
               usrOf(qualifiedName(defs.index(), c.module, home.classes[c.index].qualname)), 1, 0});
  }
  return out;
}

void addItem(std::vector<Definitions::Item>& items, Definitions::Item item) {
  for (Definitions::Item i : items)
    if (sameItem(i, item)) return;
  items.push_back(item);
}

// `p.f.g.m(...)`: p's classes (its annotation's, or self's class), then each attribute's
// classes by the annotation of the field it reads, then the one function m names in them.
std::vector<Target> typedTargets(const Definitions& defs, size_t module, const Call& call) {
  const ModuleFacts& m = defs.modules()[module];
  if (call.function < 0 || call.receiverParam < 0) return {};
  const Function& f = m.functions[call.function];
  if (static_cast<size_t>(call.receiverParam) >= f.params.size()) return {};
  std::vector<Definitions::Item> classes;
  if (call.receiverParam == 0 && f.classIndex >= 0 && !f.isStatic)
    classes.push_back({module, static_cast<size_t>(f.classIndex)});
  else
    classes = defs.classes(module, f.params[call.receiverParam].types);
  for (const std::string& name : call.fields) {
    std::vector<Definitions::Item> next;
    for (Definitions::Item c : classes)
      for (Definitions::Item t : defs.fieldClasses(c, name)) addItem(next, t);
    classes = std::move(next);
  }
  std::optional<Definitions::Item> fn;
  for (Definitions::Item c : classes)
    if (auto found = defs.method(c, call.member)) {
      if (fn && !sameItem(*fn, *found)) return {};  // which one runs is not known
      fn = found;
    }
  if (!fn) return {};
  const Function& callee = defs.modules()[fn->module].functions[fn->index];
  return {Target{*fn, facts::Via::Call, "", callee.isStatic ? 0u : 1u, 0}};
}

// What the module-level function `name` returns (`element` of a returned tuple, -1 the value
// itself) that names a scanned class or function: what a name bound to its call's result
// calls. A method's or a nested def's results are not followed (module_values.h names them).
std::vector<std::string> returnedBy(const Definitions& defs, const std::string& name, int element) {
  std::vector<std::string> out;
  std::optional<Definitions::Item> f = defs.function(name);
  if (!f || !defs.returnsDefinitions(*f)) return out;
  const ModuleFacts& m = defs.modules()[f->module];
  const Function& fn = m.functions[f->index];
  if (fn.classIndex >= 0 || fn.qualname.find('.') != std::string::npos) return out;
  for (const Ref& r : m.refs) {
    if (r.use != ValueUse::Returned || r.function != static_cast<int>(f->index) ||
        r.element != element)
      continue;
    for (const Path& p : r.targets)
      for (std::string& value : defs.index().resolve(f->module, p))
        if (!defs.definitionUsr(value).empty() &&
            std::find(out.begin(), out.end(), value) == out.end())
          out.push_back(std::move(value));
  }
  return out;
}

// What the module-level name `name` holds that the whole program follows: a display's values
// (the Element refs of its module bound to it), or what the call it is bound to returns.
std::vector<std::string> held(const Definitions& defs, const std::string& name) {
  std::vector<std::string> out;
  const Binding* b = defs.index().definition(name);
  if (!b || b->holds == Binding::Holds::Nothing) return out;
  std::optional<size_t> m = defs.index().find(name.substr(0, name.rfind('.')));
  if (!m) return out;
  auto add = [&](std::string value) {
    if (!defs.definitionUsr(value).empty() && std::find(out.begin(), out.end(), value) == out.end())
      out.push_back(std::move(value));
  };
  if (b->holds == Binding::Holds::Result) {
    for (const Path& p : b->resultOf)
      for (const std::string& f : defs.index().resolve(*m, p))
        for (std::string& value : returnedBy(defs, f, b->element)) add(std::move(value));
    return out;
  }
  for (const Ref& r : defs.modules()[*m].refs)
    if (r.use == ValueUse::Element && r.container == b->name)
      for (const Path& p : r.targets)
        for (std::string& value : defs.index().resolve(*m, p)) add(std::move(value));
  return out;
}

// Every function a call may reach: one for `self.m()` and `super().m()`; for a name bound
// several ways (`cls = A` in one branch, `cls = B` in the other) each it may be, in order.
std::vector<Target> targetsOf(const Definitions& defs, size_t module, const Call& call) {
  const ModuleFacts& m = defs.modules()[module];
  if (call.ownClass) return ownClassTargets(defs, module, call);
  if (!call.fields.empty()) return typedTargets(defs, module, call);
  if (!call.member.empty()) {
    if (call.function < 0 || m.functions[call.function].classIndex < 0) return {};
    Definitions::Item cls{module, static_cast<size_t>(m.functions[call.function].classIndex)};
    std::optional<Definitions::Item> fn;
    if (!call.viaSuper) {
      fn = defs.method(cls, call.member);
    } else {
      for (Definitions::Item base : defs.bases(cls))
        if ((fn = defs.method(base, call.member))) break;
    }
    if (!fn) return {};
    bool init = call.viaSuper && call.member == "__init__";
    const Function& f = defs.modules()[fn->module].functions[fn->index];
    // A base initializer names the class that holds it, as in C++.
    std::string holder =
        init ? usrOf(qualifiedName(defs.index(), module, m.classes[cls.index].qualname)) : "";
    return {Target{*fn, init ? facts::Via::BaseInit : facts::Via::Call, holder,
                   f.isStatic ? 0u : 1u, 0}};
  }
  std::vector<Target> out;
  auto keep = [&](Target t) {
    for (const Target& o : out)
      if (o.fn.module == t.fn.module && o.fn.index == t.fn.index && o.classUsr == t.classUsr)
        return;
    out.push_back(std::move(t));
  };
  auto keepAll = [&](const std::vector<std::string>& values) {
    for (const std::string& value : values)
      if (auto t = reachable(defs, value)) keep(*t);
  };
  for (const Call::Result& result : call.results)
    for (const Path& p : result.function)
      for (const std::string& name : defs.index().resolve(module, p))
        keepAll(returnedBy(defs, name, result.element));
  for (const Path& p : call.itemOf)
    for (const std::string& name : defs.index().resolve(module, p)) keepAll(held(defs, name));
  for (const Path& p : call.callee)
    for (const std::string& name : defs.index().resolve(module, p)) {
      if (name != "functools.partial") {
        if (auto t = reachable(defs, name))
          keep(*t);
        else
          keepAll(held(defs, name));  // a module-level name bound to a call's result
        continue;
      }
      for (const Path& f : call.firstArg)
        for (const std::string& inner : defs.index().resolve(module, f))
          if (auto t = reachable(defs, inner)) {
            t->via = facts::Via::Partial;
            t->dropArgs = 1;
            keep(*t);
          }
    }
  return out;
}

}  // namespace

Definitions::Definitions(const ModuleIndex& index, const std::vector<ModuleFacts>& modules)
    : index_(index), modules_(modules) {
  for (size_t m = 0; m < modules.size(); ++m) {
    for (size_t i = 0; i < modules[m].functions.size(); ++i)
      functions_.emplace(qualifiedName(index, m, modules[m].functions[i].qualname), Item{m, i});
    for (size_t i = 0; i < modules[m].classes.size(); ++i)
      classes_.emplace(qualifiedName(index, m, modules[m].classes[i].qualname), Item{m, i});
  }
  for (size_t m = 0; m < modules.size(); ++m) {
    for (const Binding& b : modules[m].bindings)
      if (b.holds != Binding::Holds::Nothing) holdsNames_.insert(b.name);
    for (const Ref& r : modules[m].refs) {
      if (r.use != ValueUse::Returned || r.function < 0) continue;
      for (const Path& p : r.targets)
        for (const std::string& name : index.resolve(m, p))
          if (!definitionUsr(name).empty())
            returnsDefinitions_.insert({m, static_cast<size_t>(r.function)});
    }
  }
}

std::string Definitions::definitionUsr(const std::string& dotted) const {
  return functions_.count(dotted) || classes_.count(dotted) ? usrOf(dotted) : "";
}

std::optional<Definitions::Item> Definitions::function(const std::string& dotted) const {
  auto it = functions_.find(dotted);
  if (it == functions_.end()) return std::nullopt;
  return it->second;
}

std::optional<Definitions::Item> Definitions::cls(const std::string& dotted) const {
  auto it = classes_.find(dotted);
  if (it == classes_.end()) return std::nullopt;
  return it->second;
}

std::vector<Definitions::Item> Definitions::bases(Item c) const {
  std::vector<Item> out;
  for (const auto& base : modules_[c.module].classes[c.index].bases)
    for (const Path& p : base) {
      bool found = false;
      for (const std::string& name : index_.resolve(c.module, p))
        if (auto b = cls(name)) {
          out.push_back(*b);
          found = true;
          break;
        }
      if (found) break;
    }
  return out;
}

std::vector<Definitions::Item> Definitions::below(Item c) const {
  std::vector<Item> out;
  for (size_t m = 0; m < modules_.size(); ++m)
    for (size_t i = 0; i < modules_[m].classes.size(); ++i)
      if (!sameItem({m, i}, c) && derives({m, i}, c, 0)) out.push_back({m, i});
  return out;
}

bool Definitions::derives(Item c, Item base, int depth) const {
  if (depth > kMaxBaseDepth) return false;
  for (Item b : bases(c))
    if (sameItem(b, base) || derives(b, base, depth + 1)) return true;
  return false;
}

std::optional<Definitions::Item> Definitions::method(Item c, const std::string& name) const {
  return method(c, name, 0);
}

std::optional<Definitions::Item> Definitions::method(Item c, const std::string& name,
                                                     int depth) const {
  if (depth > kMaxBaseDepth) return std::nullopt;
  const ModuleFacts& m = modules_[c.module];
  const std::string qualname = m.classes[c.index].qualname + "." + name;
  for (size_t i = 0; i < m.functions.size(); ++i)
    if (m.functions[i].classIndex == static_cast<int>(c.index) &&
        m.functions[i].qualname == qualname)
      return Item{c.module, i};
  for (Item base : bases(c))
    if (auto found = method(base, name, depth + 1)) return found;
  return std::nullopt;
}

std::vector<Definitions::Item> Definitions::classes(size_t module,
                                                    const std::vector<Path>& types) const {
  std::vector<Item> out;
  for (const Path& p : types)
    for (const std::string& name : index_.resolve(module, p))
      if (auto c = cls(name)) addItem(out, *c);
  return out;
}

std::vector<Definitions::Item> Definitions::fieldClasses(Item c, const std::string& name) const {
  return fieldClasses(c, name, 0).value_or(std::vector<Item>());
}

std::optional<std::vector<Definitions::Item>> Definitions::fieldClasses(Item c,
                                                                        const std::string& name,
                                                                        int depth) const {
  if (depth > kMaxBaseDepth) return std::nullopt;
  const ModuleFacts& m = modules_[c.module];
  const Class& cls = m.classes[c.index];
  const Class::Field* annotated = nullptr;
  for (const Class::Field& f : cls.fields) {
    if (f.name != name) continue;
    if (!f.annotated) return std::vector<Item>();  // `name = v` there: no type written
    annotated = &f;
  }
  const std::string qualname = cls.qualname + "." + name;
  for (const Function& f : m.functions)
    if (f.classIndex == static_cast<int>(c.index) && f.qualname == qualname)
      return std::vector<Item>();  // a method (or a property) of that name
  if (annotated) return classes(c.module, annotated->types);
  for (Item base : bases(c))  // the nearest base that binds it decides, even to nothing
    if (auto found = fieldClasses(base, name, depth + 1)) return found;
  return std::nullopt;
}

void collectProgram(const Definitions& defs, size_t module, facts::TuFacts& out) {
  const ModuleFacts& m = defs.modules()[module];
  for (const Function& f : m.functions) out.functions.push_back(functionFact(defs, module, f));
  for (const Class& c : m.classes) out.classes.push_back(classFact(defs, module, c));
  for (const Call& call : m.calls) {
    std::vector<Target> targets = targetsOf(defs, module, call);
    for (const Target& t : targets) {
      const Function& callee = defs.modules()[t.fn.module].functions[t.fn.index];
      const Function* caller = call.function >= 0 ? &m.functions[call.function] : nullptr;
      facts::SiteFact s;
      s.calleeUsr = usrOf(qualifiedName(defs.index(), t.fn.module, callee.qualname));
      if (caller) s.callerUsr = usrOf(qualifiedName(defs.index(), module, caller->qualname));
      s.file = m.file;
      s.line = call.line;
      s.column = call.column;
      s.via = t.via;
      s.classUsr = t.classUsr;
      std::vector<Call::Arg> args(call.args.begin() + std::min(t.dropArgs, call.args.size()),
                                  call.args.end());
      s.args = bind(callee, t.skip, args, caller);
      s.rparen = call.rparen;
      s.written = static_cast<unsigned>(call.args.size());
      s.alternative = targets.size() > 1;
      out.sites.push_back(std::move(s));
    }
  }
}

}  // namespace gridlock::python
