#include "rewrite/cpp/thread_closure.h"

#include "rewrite/cpp/include_placement.h"
#include "rewrite/cpp/supply_plan.h"
#include "rules/source_pick.h"
#include "support/strings.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gridlock::rewrite::cpp {
namespace {

using facts::Left;

std::optional<Refusal> refuse(Left left, std::string why) { return Refusal{left, std::move(why)}; }

std::string simpleName(const std::string& qualified) {
  size_t colon = qualified.rfind(':');
  return colon == std::string::npos ? qualified : qualified.substr(colon + 1);
}

bool isOperator(const std::string& simple) {
  return simple.rfind("operator", 0) == 0 && simple.size() > 8 && !support::identChar(simple[8]);
}

}  // namespace

std::optional<Refusal> ClosureBuilder::close(const std::string& start,
                                             const rules::ThreadRule& rule, Closure& c) {
  std::vector<std::string> work;
  auto first = s_.inv.program.functions.find(start);
  if (first != s_.inv.program.functions.end() && keeps(first->second, rule)) {
    if (auto no = addStore(first->second, rule, c, work)) return no;
  } else {
    work.push_back(start);
    c.functions.insert(start);
  }
  while (!work.empty()) {
    std::string usr = work.back();
    work.pop_back();
    auto fit = s_.inv.program.functions.find(usr);
    if (fit == s_.inv.program.functions.end())
      return refuse(Left::OpenCallGraph, "a caller is not a function gridlock indexed");
    const facts::FunctionFact& fn = fit->second;
    if (auto no = checkFunction(usr, fn)) return no;
    unsigned k = 0;
    if (auto no = position(fn, rule, k)) return no;
    c.position[usr] = k;
    for (const Caller& call : callersOf(fn))
      if (auto no = addCall(call, fn, rule, k, c, work)) return no;
  }
  return std::nullopt;
}

std::optional<Refusal> ClosureBuilder::checkFunction(const std::string& usr,
                                                     const facts::FunctionFact& fn) {
  const index::RewriteIndex& facts = s_.inv.rewrite;
  // Every construction of a class defined in a source file is compiled with that file, which
  // the plan edits: one that needs the default constructor stops it compiling, and the
  // re-parse rolls it back. A header's class may be built where no edit reaches.
  auto cls = s_.inv.program.classes.find(fn.classUsr);
  const bool local = cls != s_.inv.program.classes.end() && !isHeaderFile(cls->second.file);
  if (fn.isConstructor && fn.params.empty() && !local)
    return refuse(Left::OpenCallGraph, fn.name +
                                           " is a default constructor: constructions "
                                           "without an argument list are not all visible");
  const std::string simple = simpleName(fn.name);
  if (isOperator(simple))
    return refuse(Left::OpenCallGraph, fn.name + " is an operator: it cannot take a parameter");
  if (fn.isPublicApi)
    return refuse(Left::PublicApi, fn.name +
                                       " is declared in a public header: a new parameter "
                                       "breaks callers outside the codebase");
  if (fn.isVirtual || !fn.overrides.empty())
    return refuse(Left::VirtualDispatch, fn.name + " is virtual");
  if (fn.name == "main") return refuse(Left::OpenCallGraph, "main cannot take a parameter");
  if (facts.addressTaken.count(usr))
    return refuse(Left::FunctionPointer,
                  fn.name + "'s address is taken: calls through the pointer are not seen");
  if (std::optional<std::string> where = namedWhereSkipped(fn, simple))
    return refuse(Left::OpenCallGraph, fn.name + " is named in code this build leaves out (" +
                                           *where + "): a call there would not get the argument");
  auto lists = facts.lists.find(usr);
  if (lists == facts.lists.end() || lists->second.empty())
    return refuse(Left::OpenCallGraph, "no declaration of " + fn.name + " under the root");
  bool isTemplate = false;
  std::set<std::string> defined;  // files with a body of it
  for (const auto& l : lists->second)
    if (l.definition) defined.insert(l.file);
  if (defined.size() > 1)
    return refuse(Left::OpenCallGraph,
                  fn.name + " is defined in " + *defined.begin() + " and " + *defined.rbegin() +
                      ": separate programs each define it, and a call reaches the one its "
                      "program links");
  for (const auto& l : lists->second) {
    if (std::string why = outsidePaths(s_.inv, l.file); !why.empty())
      return refuse(Left::OpenCallGraph, fn.name + " is declared in " + l.file + ", and " + why);
    if (const std::string* why = s_.held(l.file))
      return refuse(Left::CompileError, "declared in " + l.file +
                                            ", whose rewritten TU did not "
                                            "compile (" +
                                            *why + ")");
    isTemplate = isTemplate || l.isTemplate;
    if (l.inMacro) return refuse(Left::Macro, fn.name + " is declared in a macro");
  }
  return isTemplate ? checkTemplate(fn, simple) : std::nullopt;
}

std::optional<Refusal> ClosureBuilder::checkTemplate(const facts::FunctionFact& fn,
                                                     const std::string& simple) {
  // Another declaration of that name (an explicit specialization, an overload) would have to
  // change with it.
  if (const auto* same = s_.functionsNamed(fn.name); same && same->size() > 1)
    return refuse(Left::OpenCallGraph,
                  fn.name + " is a template with specializations or overloads of the same name");
  // A call whose callee depends on a template parameter is seen only where an instantiation
  // resolved it: one no instantiation showed would not get the argument.
  const auto& dependent = s_.inv.rewrite.dependentCalls;
  if (auto deps = dependent.find(simple); deps != dependent.end())
    for (const auto& d : deps->second) {
      // Resolved there by some instantiation: to this function (a caller like any other), or
      // to another one.
      if (calleesAt().count({d.file, d.rparen})) continue;
      return refuse(Left::OpenCallGraph,
                    fn.name + " may be called at " + d.file + ":" + std::to_string(d.line) +
                        " in a template no translation unit instantiates: that call would not "
                        "get the argument");
    }
  return std::nullopt;
}

std::optional<Refusal> ClosureBuilder::position(const facts::FunctionFact& fn,
                                                const rules::ThreadRule& rule, unsigned& k) {
  const bool last = rule.position == facts::ThreadPosition::Last;
  k = 0;
  while (k < fn.params.size() && (last || !fn.params[k].hasDefault)) ++k;
  for (const auto& prm : fn.params)
    if (prm.name == rule.name)
      return refuse(Left::NameClash, fn.name + " already has a parameter named " + rule.name);
  if (overloadClash(fn, k, rule))
    return refuse(Left::NameClash, "another overload of " + fn.name +
                                       " already takes the parameter list it would get");
  return std::nullopt;
}

std::optional<Refusal> ClosureBuilder::addCall(const Caller& call, const facts::FunctionFact& fn,
                                               const rules::ThreadRule& rule, unsigned k,
                                               Closure& c, std::vector<std::string>& work) {
  if (call.inMacro)
    return refuse(Left::Macro, "the call at " + call.site + " is spelled in a macro");
  if (std::string why = outsidePaths(s_.inv, call.file); !why.empty())
    return refuse(Left::OpenCallGraph, "called at " + call.site + ", and " + why);
  if (const std::string* why = s_.held(call.file))
    return refuse(Left::CompileError, "called at " + call.site +
                                          ", whose rewritten TU did not "
                                          "compile (" +
                                          *why + ")");
  if (call.inLambda)
    return refuse(Left::Lambda, "the call at " + call.site +
                                    " is inside a lambda, where the "
                                    "caller's parameter would have to be captured");
  if (call.callerUsr.empty())
    return refuse(Left::OpenCallGraph, fn.name + " is called at file scope (" + call.site + ")");
  if (call.rparen == 0)
    return refuse(Left::OpenCallGraph, "the construction at " + call.site +
                                           " has no argument list to add to (implicit)");
  if (k < call.written && (k >= call.argBegins.size() || call.argBegins[k] == 0))
    return refuse(Left::Macro, "the arguments at " + call.site + " are written in a macro");
  const facts::FunctionFact* caller = nullptr;
  if (auto it = s_.inv.program.functions.find(call.callerUsr); it != s_.inv.program.functions.end())
    caller = &it->second;
  std::string arg;
  bool edge = s_.rules.placeAny(call.file, call.file.empty() || call.file[0] != '/') ==
              rules::Placement::Edge;
  // main, and an accessor's own definition (the legacy API, which keeps its signature), pass
  // the edge as an edge file does.
  const bool passesEdge =
      edge || (caller && (caller->name == "main" || s_.rules.function(caller->name)));
  if (passesEdge) {
    arg = s_.edgeIn(rule, caller, call.file);
  } else if (call.sources) {
    bool field = false;
    const std::string group = rule.yields == facts::Yields::Collection ? "" : rule.group;
    if (const facts::SourceFact* src =
            rules::pickSource(*call.sources, group, rule.yields, &field)) {
      facts::Shape from;
      std::string spelling = rules::spellPicked(*src, field, rule.group, &from);
      arg = rules::adaptShape(spelling, from, rules::shapeOfTypeName(rule.type));
    }
  }
  if (arg.empty()) {
    if (!caller)
      return refuse(Left::OpenCallGraph, "the caller at " + call.site + " is not indexed");
    if (keeps(*caller, rule)) {
      if (auto no = addStore(*caller, rule, c, work)) return no;
      arg = rule.member;
    } else {
      arg = rule.name;
      if (c.functions.insert(call.callerUsr).second) work.push_back(call.callerUsr);
    }
  }
  // Last: the defaults the call left out are written before the new argument.
  const bool last = rule.position == facts::ThreadPosition::Last;
  std::string spelled;
  for (unsigned j = call.written; last && j < fn.params.size(); ++j) {
    if (!portableDefault(fn.params[j].defaultText))
      return refuse(Left::DefaultArgument, "the call at " + call.site + " leaves out " +
                                               fn.params[j].name + ", whose default (" +
                                               fn.params[j].defaultText +
                                               ") may not mean the same there");
    spelled += fn.params[j].defaultText + ", ";
  }
  std::pair<std::string, unsigned> key{call.file,
                                       k < call.written ? call.argBegins[k] : call.rparen};
  if (k < call.written) {
    c.args[key] = {arg + ", ", call.site};
    c.argNames[key] = rule.name;
  } else
    c.args[key] = {(call.written ? ", " : "") + spelled + arg, call.site};
  if (passesEdge) {
    c.edgeArgs[call.callerUsr].push_back(key);
    if (!rule.include.empty()) c.edgeFiles.insert(call.file);
  }
  return std::nullopt;
}

bool storePoint(const facts::FunctionFact& fn, const rules::ThreadRule& rule) {
  if (!rule.store || fn.classUsr.empty() || fn.isConstructor || fn.isPublicApi) return false;
  const std::string simple = simpleName(fn.name);
  // operator new and delete are static: no object to keep anything in.
  if (isOperator(simple))
    return simple.find("new") == std::string::npos && simple.find("delete") == std::string::npos;
  return fn.isVirtual || !fn.overrides.empty();
}

bool ClosureBuilder::keeps(const facts::FunctionFact& fn, const rules::ThreadRule& rule) const {
  if (storePoint(fn, rule)) return true;
  if (!rule.store || !keeping_.count(fn.classUsr) || fn.isStatic || fn.isConstructor ||
      fn.isPublicApi || isOperator(simpleName(fn.name)))
    return false;
  for (const Caller& call : callersOf(fn)) {
    auto caller = s_.inv.program.functions.find(call.callerUsr);
    if (caller == s_.inv.program.functions.end() || caller->second.isConstructor) return false;
  }
  return true;
}

std::optional<Refusal> ClosureBuilder::addStore(const facts::FunctionFact& fn,
                                                const rules::ThreadRule& rule, Closure& c,
                                                std::vector<std::string>& work) {
  c.stores[fn.usr] = fn.classUsr;
  auto k = s_.inv.program.classes.find(fn.classUsr);
  if (k == s_.inv.program.classes.end())
    return refuse(Left::VirtualDispatch,
                  fn.name + " cannot take " + rule.name + ", and its class is not indexed");
  if (auto no = checkStoreClass(fn, k->second, rule)) {
    // The read stays for what stops the method taking a parameter; the class says why it
    // cannot stand in.
    if (no->left != Left::CompileError && no->left != Left::NameClash)
      no->left = isOperator(simpleName(fn.name)) ? Left::OpenCallGraph : Left::VirtualDispatch;
    no->why = fn.name + " cannot take " + rule.name + ", and " + k->second.name +
              " cannot keep it: " + no->why;
    return no;
  }
  if (!c.storeClasses.insert(fn.classUsr).second) return std::nullopt;
  for (const std::string& ctor : s_.inv.rewrite.bodyOf(fn.classUsr)->constructors)
    if (c.functions.insert(ctor).second) work.push_back(ctor);
  return std::nullopt;
}

std::optional<Refusal> ClosureBuilder::checkStoreClass(const facts::FunctionFact& fn,
                                                       const facts::ClassFact& k,
                                                       const rules::ThreadRule& rule) {
  const facts::ClassBodyFact* body = s_.inv.rewrite.bodyOf(k.usr);
  if (!body || body->memberAt == 0)
    return refuse(Left::Macro, "its definition is not under the root, or is spelled in a macro");
  if (std::string why = outsidePaths(s_.inv, k.file); !why.empty())
    return refuse(Left::OpenCallGraph, "defined in " + k.file + ", and " + why);
  if (const std::string* why = s_.held(k.file))
    return refuse(Left::CompileError,
                  "defined in " + k.file + ", whose rewritten TU did not compile (" + *why + ")");
  if (body->isTemplate)
    return refuse(Left::OpenCallGraph, "it is a template (not done by this version)");
  if (body->userCopy)
    return refuse(Left::OpenCallGraph,
                  "it has a copy or move constructor of its own, which would not copy the member");
  // The member's name is free in the class, its bases and the method.
  for (const std::string& usr : s_.inv.program.ancestors(k.usr))
    if (const facts::ClassBodyFact* up = s_.inv.rewrite.bodyOf(usr)) {
      const auto& names = up->memberNames;
      if (std::find(names.begin(), names.end(), rule.member) != names.end())
        return refuse(Left::NameClash,
                      s_.inv.program.classes.at(usr).name + " already declares " + rule.member);
    }
  for (const auto& prm : fn.params)
    if (prm.name == rule.member)
      return refuse(Left::NameClash, fn.name + " has a parameter named " + rule.member);
  if (auto lists = s_.inv.rewrite.lists.find(fn.usr); lists != s_.inv.rewrite.lists.end())
    for (const auto& l : lists->second)
      if (std::find(l.bodyNames.begin(), l.bodyNames.end(), rule.member) != l.bodyNames.end())
        return refuse(Left::NameClash, fn.name + " declares a local named " + rule.member);
  if (body->constructors.empty())
    return refuse(Left::OpenCallGraph, "it declares no constructor to take " + rule.name);
  for (const std::string& ctor : body->constructors) {
    auto f = s_.inv.program.functions.find(ctor);
    auto lists = s_.inv.rewrite.lists.find(ctor);
    if (f == s_.inv.program.functions.end() || lists == s_.inv.rewrite.lists.end())
      return refuse(Left::OpenCallGraph, "one of its constructors is not indexed");
    bool defined = false;
    for (const auto& l : lists->second)
      if (l.definition) defined = l.delegating || l.initAt != 0;
    if (!defined)
      return refuse(Left::OpenCallGraph,
                    f->second.name +
                        " has no body under the root to initialise the member in (defaulted, "
                        "or its initializers are in a macro)");
  }
  return std::nullopt;
}

std::optional<std::string> ClosureBuilder::namedWhereSkipped(const facts::FunctionFact& fn,
                                                             const std::string& simple) {
  const auto& skipped = s_.inv.rewrite.skippedNames;
  if (auto sk = skipped.find(simple); sk != skipped.end()) return sk->second;
  // `Q::name`: not this function only when Q is a class, every class of that name, that is
  // neither the function's class nor derived from it. A namespace or an alias (`ps::f`) is
  // not resolved here, so it may be this function.
  const std::string tail = "::" + simple;
  for (const auto& [name, where] : skipped) {
    if (name.size() <= tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail))
      continue;
    const std::string q = simpleName(name.substr(0, name.size() - tail.size()));
    if (!otherClass(q, fn.classUsr)) return where;
  }
  return std::nullopt;
}

bool ClosureBuilder::otherClass(const std::string& simple, const std::string& classUsr) {
  if (classesBySimpleName_.empty())
    for (const auto& [usr, c] : s_.inv.program.classes)
      classesBySimpleName_.emplace(simpleName(c.name), usr);
  auto [lo, hi] = classesBySimpleName_.equal_range(simple);
  if (lo == hi) return false;
  // Up from the named class: reaching the function's class means it may be this one.
  for (auto it = lo; it != hi; ++it)
    if (s_.inv.program.ancestors(it->second).count(classUsr)) return false;
  return true;
}

std::vector<ClosureBuilder::Caller> ClosureBuilder::callersOf(const facts::FunctionFact& fn) const {
  std::vector<Caller> out;
  if (fn.isConstructor) {
    auto [lo, hi] = s_.inv.program.sitesByCallee.equal_range(fn.usr);
    for (auto it = lo; it != hi; ++it) {
      const facts::SiteFact& site = s_.inv.program.sites[it->second];
      Caller c{facts::where(site.file, site.line, site.column),
               site.file,
               site.callerUsr,
               site.inMacro,
               false,
               site.rparen,
               site.written,
               {},
               &site.sources};
      for (unsigned i = 0; i < site.written && i < site.args.size(); ++i)
        c.argBegins.push_back(site.args[i].length ? site.args[i].insertAt : 0);
      out.push_back(std::move(c));
    }
    return out;
  }
  const auto& calls = s_.inv.rewrite.calls;
  if (auto it = calls.find(fn.usr); it != calls.end())
    for (const auto& call : it->second)
      out.push_back({facts::where(call.file, call.line, call.column), call.file, call.callerUsr,
                     call.inMacro, call.inLambda, call.rparen, call.written, call.argBegins,
                     &call.sources});
  return out;
}

bool ClosureBuilder::overloadClash(const facts::FunctionFact& fn, unsigned k,
                                   const rules::ThreadRule& rule) const {
  std::vector<std::string> want;
  for (const auto& prm : fn.params) want.push_back(noSpaces(prm.type));
  want.insert(want.begin() + k, noSpaces(rule.type));
  const auto* named = s_.functionsNamed(fn.name);
  if (!named) return false;
  for (const facts::FunctionFact* o : *named) {
    if (o->usr == fn.usr || o->params.size() != want.size()) continue;
    bool same = true;
    for (size_t i = 0; i < want.size() && same; ++i) same = noSpaces(o->params[i].type) == want[i];
    if (same) return true;
  }
  return false;
}

const std::set<std::pair<std::string, unsigned>>& ClosureBuilder::calleesAt() {
  if (calleesAt_.empty())
    for (const auto& [calleeUsr, calls] : s_.inv.rewrite.calls)
      for (const auto& call : calls) calleesAt_.emplace(call.file, call.rparen);
  return calleesAt_;
}

}  // namespace gridlock::rewrite::cpp
