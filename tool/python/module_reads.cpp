#include "python/module_reads.h"

#include "frontend/suppressions.h"
#include "python/group_holders.h"
#include "python/module_program.h"
#include "rules/python_rules.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace gridlock::python {
namespace {

// What a reference names, once matched: the rule's read (a global rule's too, as its kind
// and pack), and the written name it is at.
struct Match : rules::PythonAccessorMatch {
  size_t part = 0;
  bool copied = false;     // a load of a copy of module state: no read
  bool qualified = false;  // the written names before `part` name what defines the name
  bool setter = false;     // a setter's reference (a write)
};

std::optional<Match> matchName(const ModuleIndex& index, const rules::RuleSet& rules,
                               const std::string& name, const Ref& ref) {
  if (auto a = rules.pythonAccessor(name)) {
    // Assigning to an accessor (a test's monkeypatch) reads nothing; an alias's value is read
    // where the alias is used.
    if (ref.access == Access::Write || ref.aliasDefinition) return std::nullopt;
    return Match{*a};
  }
  if (const rules::SetterRule* st = rules.pythonSetter(name)) {
    // Each reference to a setter (a call, the function handed on) writes the state; assigning
    // to it (a monkeypatch) writes nothing.
    if (ref.access == Access::Write || ref.aliasDefinition) return std::nullopt;
    Match m{{name, facts::ReadKind::GlobalWrite, "", facts::Yields::State, st->pack, nullptr}};
    m.setter = true;
    return m;
  }
  const Binding* def = index.definition(name);
  if (const rules::PythonGlobalRule* g = rules.pythonGlobal(name, def && def->setByFunction)) {
    facts::ReadKind kind =
        ref.access == Access::Write ? facts::ReadKind::GlobalWrite : facts::ReadKind::GlobalState;
    return Match{{name, kind, "", facts::Yields::State, g->pack, nullptr}};
  }
  return std::nullopt;
}

// Whether `name`, module state the whole root of `target` names, was copied where the root
// was bound: by an assignment (`x = ps._X`, in a function or at module level) or an import
// (`from ps import _X`), which read it there, once. Loading the copy reads no state (an accessor it
// names is still called where it is used); the root's own module state (a module name set under
// `global`) is no copy.
bool copiedAtBinding(const ModuleIndex& index, size_t module, const ModuleFacts& m,
                     const Path& target, const std::string& name) {
  if (target.copy) return true;
  if (!target.global || name == qualifiedName(index, module, target.names[0])) return false;
  for (const Binding& b : m.bindings)
    if (b.name == target.names[0] && b.kind == Binding::Kind::Alias) return true;
  return false;
}

// The first rule a prefix of the reference names, shortest prefix first: `ps._X.y = 1` writes
// `_X`; `ps.get_x()` reads `get_x`, not the module. A copy's loads read nothing; writing into
// it (`x.y = 1`) still changes the object the module's name holds.
std::optional<Match> matchRef(const ModuleIndex& index, size_t module, const ModuleFacts& m,
                              const rules::RuleSet& rules, const Ref& ref) {
  for (const Path& target : ref.targets) {
    if (target.names.size() < ref.parts.size()) continue;
    size_t expanded = target.names.size() - ref.parts.size();
    std::optional<Match> found;
    for (size_t k = 0; k < ref.parts.size() && !found; ++k) {
      Path prefix = target;
      prefix.names.resize(expanded + k + 1);
      for (const std::string& name : index.resolve(module, prefix))
        if ((found = matchName(index, rules, name, ref))) {
          found->part = k;
          if (k > 0) {  // `mpu.get_x`: whether `mpu` is the module that defines get_x
            prefix.names.pop_back();
            std::vector<std::string> q = index.resolve(module, prefix);
            found->qualified =
                std::find(q.begin(), q.end(), name.substr(0, name.rfind('.'))) != q.end();
          }
          if (k == 0 && found->kind == facts::ReadKind::GlobalState &&
              copiedAtBinding(index, module, m, target, name))
            found->copied = true;
          break;
        }
    }
    if (found && !found->copied) return found;
  }
  return std::nullopt;
}

facts::Read makeRead(const ModuleIndex& index, size_t module, const ModuleFacts& m, const Ref& ref,
                     const Match& match, const Ref::Guard* fallback) {
  facts::Read r;
  r.file = m.file;
  r.line = ref.parts[match.part].line;
  r.column = ref.parts[match.part].column;
  r.name = match.name;
  r.kind = match.kind;
  r.group = match.group;
  r.yields = match.yields;
  r.language = facts::Language::Python;
  r.spelling = facts::where(r.file, r.line, r.column);
  if (ref.function >= 0) {
    r.enclosing = qualifiedName(index, module, m.functions[ref.function].qualname);
    r.enclosingUsr = usrOf(r.enclosing);
  }
  if (ref.classIndex >= 0)
    r.enclosingClass = qualifiedName(index, module, m.classes[ref.classIndex].qualname);
  r.offset = ref.offset;
  r.length = ref.length;
  r.rangeLine = ref.line;
  r.rangeColumn = ref.column;
  r.endLine = ref.endLine;
  r.endColumn = ref.endColumn;
  r.called = ref.called && match.part + 1 == ref.parts.size();
  r.parentQualified = match.qualified;
  if (r.called) r.arguments = ref.arguments;
  r.inLambda = ref.inLambda;
  if (r.kind != facts::ReadKind::GlobalWrite && fallback) {
    r.guard = facts::Guard::Fallback;
    r.holder = fallback->holder;
    if (fallback->holderParam >= 0 && ref.function >= 0) {
      r.guardFunction = r.enclosingUsr;
      r.guardParam = fallback->holderParam;
      for (const Ref::Test& t : ref.tests) {
        facts::ParamTest test{t.param, t.expect};
        if (t.param != r.guardParam &&
            std::find(r.guardTests.begin(), r.guardTests.end(), test) == r.guardTests.end())
          r.guardTests.push_back(test);
      }
    }
  }
  return r;
}

void setHint(facts::Read& r) {
  if (r.kind == facts::ReadKind::GlobalWrite) return;  // a write has no fix
  if (r.edge || r.suppressed)
    r.hint.fix = facts::Hint::None;
  else
    r.hint.fix = r.guard == facts::Guard::Fallback ? facts::Hint::Require : facts::Hint::Thread;
}

// Whether `name` is a group or a Python rule's name (dotted, or its last component) in the
// packs: an allow naming anything else covers nothing and is reported.
bool knownAllowName(const rules::RuleSet& rules, const std::string& name) {
  auto last = [](const std::string& d) { return d.substr(d.rfind('.') + 1); };
  for (const auto& pack : rules.packs()) {
    for (const auto& a : pack.pythonAccessors) {
      if (name == a.group || name == a.name || (!a.name.empty() && name == last(a.name)))
        return true;
      for (const auto& [middle, group] : a.family.groups)
        if (name == group || name == middle) return true;
      if (!a.family.module.empty() && name.rfind(a.family.prefix, 0) == 0) return true;
    }
    for (const auto& g : pack.pythonGlobals)
      if (name == g.variable || (!g.variable.empty() && name == last(g.variable))) return true;
    for (const auto& st : pack.setters)
      if (!st.python.empty() && (name == st.python || name == last(st.python))) return true;
  }
  return false;
}

// The module's allow comments, with the malformed ones and those naming nothing known in
// `out.badSuppressions`.
frontend::FileSuppressions allowsOf(const ModuleFacts& m, const rules::RuleSet& rules,
                                    facts::TuFacts& out) {
  std::vector<frontend::SourceComment> comments;
  for (const AllowText& a : m.allows)
    comments.push_back({a.line, a.column, a.line, a.alone, a.text});
  frontend::FileSuppressions s = frontend::suppressionsOf(comments);
  for (const auto& a : s.allows)
    for (const auto& n : a.names)
      if (!knownAllowName(rules, n))
        s.bad.push_back({a.line, a.column, a.text,
                         "allow names '" + n +
                             "', which is no group, accessor or global of the rule packs: it "
                             "covers no read of that name"});
  for (auto& b : s.bad) {
    if (size_t at = b.problem.find("// gridlock"); at != std::string::npos)
      b.problem.replace(at, 2, "#");  // Python's comment marker in the advice
    out.badSuppressions.push_back({m.file, b.line, b.column, b.text, b.problem});
  }
  return s;
}

// Where the library a rule names lies outside the tree: the first prefix of its module (a
// function's or value's dotted name without its last name; a family's or module state's
// module) that no scanned module is or lies under, when what is above it is no scanned module
// either (nothing, or a namespace package: Megatron-Bridge's `megatron` beside the installed
// megatron.core). "" when the tree holds the module, or a package of the tree lacks it (a
// module of the tree's own that is gone: the rule is stale).
std::string libraryOutsideTree(const ModuleIndex& index, const std::string& dotted, bool module) {
  std::string prefix;
  for (size_t at = 0;;) {
    size_t dot = dotted.find('.', at);
    if (dot == std::string::npos && !module) return "";
    std::string parent = prefix;
    prefix = dotted.substr(0, dot);
    if (!index.holds(prefix)) return parent.empty() || !index.find(parent) ? prefix : "";
    if (dot == std::string::npos) return "";
    at = dot + 1;
  }
}

// Whether the module imports `library` or a module under it (`import megatron.core.x`, `from
// megatron.core import x`, at module level or in a function).
bool importsFrom(const ModuleFacts& m, const std::string& library) {
  auto under = [&](const Path& p) {
    if (p.global || p.level != 0) return false;
    std::string name;
    for (const std::string& n : p.names) {
      name += (name.empty() ? "" : ".") + n;
      if (name == library) return true;
      if (name.size() >= library.size()) return false;
    }
    return false;
  };
  for (const Binding& b : m.bindings)
    if (b.kind == Binding::Kind::Alias && under(b.target)) return true;
  for (const auto* refs : {&m.imports, &m.refs})
    for (const Ref& r : *refs)
      for (const Path& p : r.targets)
        if (under(p)) return true;
  return false;
}

// The rules whose definitions this module holds: its functions and methods, and its values.
// And the rules of a library outside the tree that it imports (an installed megatron.core in a
// downstream project): their definitions are not the tree's to hold, so they are no rule that
// matched nothing.
void rulesSeen(const ModuleIndex& index, size_t module, const ModuleFacts& m,
               const rules::RuleSet& rules, facts::TuFacts& out) {
  std::set<std::string> seen(out.rulesSeen.begin(), out.rulesSeen.end());
  auto installed = [&](const std::string& dotted, bool isModule) {
    std::string library = libraryOutsideTree(index, dotted, isModule);
    return !library.empty() && importsFrom(m, library);
  };
  for (const auto& pack : rules.packs()) {
    for (const auto& a : pack.pythonAccessors)
      if (a.name.empty() ? installed(a.family.module, true) : installed(a.name, false))
        seen.insert(rules::pythonRuleName(a));
    for (const auto& g : pack.pythonGlobals)
      if (g.variable.empty() ? installed(g.module, true) : installed(g.variable, false))
        seen.insert(rules::pythonRuleName(g));
    for (const auto& st : pack.setters)
      if (!st.python.empty() && installed(st.python, false)) seen.insert(rules::setterRuleName(st));
  }
  for (const Function& f : m.functions) {
    std::string name = qualifiedName(index, module, f.qualname);
    if (auto a = rules.pythonAccessor(name)) seen.insert(rules::pythonRuleName(*a->rule));
    if (const rules::SetterRule* st = rules.pythonSetter(name))
      seen.insert(rules::setterRuleName(*st));
  }
  for (const Binding& b : m.bindings)
    if (b.kind == Binding::Kind::Value)
      if (const auto* g = rules.pythonGlobal(qualifiedName(index, module, b.name), b.setByFunction))
        seen.insert(rules::pythonRuleName(*g));
  out.rulesSeen.assign(seen.begin(), seen.end());
}

}  // namespace

std::string qualifiedName(const ModuleIndex& index, size_t module, const std::string& qualname) {
  const std::string& name = index.nameOf(module);
  return name.empty() ? qualname : name + "." + qualname;
}

std::string usrOf(const std::string& dotted) { return "py:" + dotted; }

namespace {

using OnLine = std::set<std::tuple<unsigned, facts::ReadKind, std::string>>;

// The read `ref` is, if any, into `out`.
void collectRead(const ModuleIndex& index, size_t module, const ModuleFacts& m,
                 const rules::RuleSet& rules, const Ref& ref, const GroupHolders& holders,
                 const frontend::FileSuppressions& allows, std::vector<bool>& allowUsed,
                 OnLine& onLine, facts::TuFacts& out) {
  std::optional<Match> match = matchRef(index, module, m, rules, ref);
  if (!match) return;
  const rules::PythonCounting& counting = rules.packs()[match->pack].python;
  facts::Read r = makeRead(index, module, m, ref, *match, holders.fallback(ref));
  if (!counting.launder) {  // the pack counts no laundered reads of its rules
    r.guardFunction.clear();
    r.guardParam = -1;
    r.guardTests.clear();
  }
  bool accessor = r.kind == facts::ReadKind::Accessor || r.kind == facts::ReadKind::Shim;
  if ((accessor || match->setter) && counting.callsOnly && !r.called) return;
  rules::Placement place = rules.place(m.file, true, match->pack);
  if (place == rules::Placement::Out) {
    // A file no pack scans: its fallbacks still launder reads into its callers.
    if (r.guardParam >= 0) out.exemptReads.push_back(std::move(r));
    return;
  }
  if (counting.oncePerLine && !onLine.emplace(r.line, r.kind, r.name).second) return;
  r.edge = place == rules::Placement::Edge;
  if (const frontend::AllowComment* a = frontend::coveringAllow(
          allows, r.line, ref.statementLine ? ref.statementLine : r.line, {r.group, r.name})) {
    r.suppressed = a->reason;
    allowUsed[static_cast<size_t>(a - allows.allows.data())] = true;
  }
  setHint(r);
  out.reads.push_back(std::move(r));
}

}  // namespace

namespace {

// The function a call of `name` runs (a function, a class's __init__, a method a class has),
// when a call may give it less than every argument; else null.
const Function* mayLeaveOut(const Definitions& defs, const std::string& name) {
  std::optional<Definitions::Item> f = defs.function(name);
  if (auto c = defs.cls(name)) f = defs.method(*c, "__init__");
  if (size_t dot = name.rfind('.'); !f && dot != std::string::npos)
    if (auto c = defs.cls(name.substr(0, dot))) f = defs.method(*c, name.substr(dot + 1));
  if (!f) return nullptr;
  const Function& fn = defs.modules()[f->module].functions[f->index];
  for (const Param& p : fn.params)
    if (p.hasDefault || p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::VarKeywords)
      return &fn;
  return nullptr;
}

}  // namespace

std::vector<std::string> missedReads(const ModuleIndex& index, size_t module, const ModuleFacts& m,
                                     const rules::RuleSet& rules, const Definitions* defs) {
  std::vector<std::string> out;
  const std::string head = ": error: tree-sitter-python cannot read this, which CPython parses, ";
  const std::string how =
      ": the scan would miss it (write the statement in a form the grammar reads, e.g. "
      "`*((b,) * n)` for a starred product)";
  for (const Ref& ref : m.unreadRefs) {
    std::optional<Match> match = matchRef(index, module, m, rules, ref);
    if (match) {
      if (rules.place(m.file, true, match->pack) == rules::Placement::Out) continue;
      const Ref::Part& at = ref.parts[match->part];
      out.push_back(facts::where(m.file, at.line, at.column) + head + "and it " +
                    (match->kind == facts::ReadKind::GlobalWrite ? "writes " : "reads ") +
                    match->name + how);
      continue;
    }
    if (!defs || !ref.called || ref.access != Access::Read ||
        rules.placeAny(m.file, true) == rules::Placement::Out)
      continue;
    std::string callee;
    for (const Path& p : ref.targets)
      for (const std::string& name : index.resolve(module, p))
        if (callee.empty() && mayLeaveOut(*defs, name)) callee = name;
    if (callee.empty()) continue;
    const Ref::Part& at = ref.parts.back();
    out.push_back(facts::where(m.file, at.line, at.column) + head + "and it calls " + callee +
                  ", which a call may give less than every argument, so the call may launder a "
                  "read" +
                  how);
  }
  return out;
}

void collectReads(const ModuleIndex& index, size_t module, const ModuleFacts& m,
                  const rules::RuleSet& rules, facts::TuFacts& out) {
  OnLine onLine;
  // Every module's, not only those with reads: the rewrite edits call sites too (a laundered
  // read's), and checks each file it edits against the bytes the scan read.
  out.digests[m.file] = m.digest;
  frontend::FileSuppressions allows = allowsOf(m, rules, out);
  // The guards some read of the packs flows into: their holders hold what it gives.
  std::set<std::pair<unsigned, std::string>> flowing;
  for (const Ref& ref : m.refs)
    for (const Ref::Guard& g : ref.guards)
      if (g.flows && !flowing.count({g.at, g.holder}) && matchRef(index, module, m, rules, ref))
        flowing.emplace(g.at, g.holder);
  GroupHolders holders(m, std::move(flowing));
  std::vector<bool> allowUsed(allows.allows.size(), false);
  // The imports' and the other references', each in source order, merged by where they are.
  size_t i = 0, j = 0;
  while (i < m.imports.size() || j < m.refs.size()) {
    bool import =
        j == m.refs.size() || (i < m.imports.size() && m.imports[i].offset < m.refs[j].offset);
    collectRead(index, module, m, rules, import ? m.imports[i++] : m.refs[j++], holders, allows,
                allowUsed, onLine, out);
  }
  // Which allows a read fell under, in a module a pack scans (one it does not has no reads to
  // cover); one naming a name no pack knows is a bad suppression already.
  if (rules.anyInterest(m.file, true))
    for (size_t a = 0; a < allows.allows.size(); ++a)
      if (std::all_of(allows.allows[a].names.begin(), allows.allows[a].names.end(),
                      [&](const std::string& n) { return knownAllowName(rules, n); }))
        out.allows.push_back({m.file, allows.allows[a].line, allows.allows[a].column,
                              allows.allows[a].text, allowUsed[a], true});
  rulesSeen(index, module, m, rules, out);
}

}  // namespace gridlock::python
