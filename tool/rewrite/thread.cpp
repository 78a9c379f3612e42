// Thread (docs/rewrite.md): a parameter added to functions with no group in scope and to
// their callers, until each caller holds the group or is an edge.
#include "rewrite/planner.h"
#include "rules/source_pick.h"

#include <cctype>

namespace gridlock::rewrite::detail {

bool Planner::overloadClash(const facts::FunctionFact& fn, unsigned k,
                            const rules::ThreadRule& rule) {
  std::vector<std::string> want;
  for (const auto& prm : fn.params) want.push_back(noSpaces(prm.type));
  want.insert(want.begin() + k, noSpaces(rule.type));
  auto it = byName_.find(fn.name);
  if (it == byName_.end()) return false;
  for (const facts::FunctionFact* o : it->second) {
    if (o->usr == fn.usr || o->params.size() != want.size()) continue;
    bool same = true;
    for (size_t i = 0; i < want.size() && same; ++i) same = noSpaces(o->params[i].type) == want[i];
    if (same) return true;
  }
  return false;
}

std::vector<Planner::Caller> Planner::callersOf(const facts::FunctionFact& fn) {
  std::vector<Caller> out;
  if (fn.isConstructor) {
    auto [lo, hi] = inv_.program.sitesByCallee.equal_range(fn.usr);
    for (auto it = lo; it != hi; ++it) {
      const facts::SiteFact& s = inv_.program.sites[it->second];
      Caller c{facts::where(s.file, s.line, s.column), s.file, s.callerUsr, s.inMacro, false,
               s.rparen, s.written, {}, &s.sources};
      for (unsigned i = 0; i < s.written && i < s.args.size(); ++i)
        c.argBegins.push_back(s.args[i].length ? s.args[i].offset : 0);
      out.push_back(std::move(c));
    }
    return out;
  }
  if (auto calls = facts_->calls.find(fn.usr); calls != facts_->calls.end())
    for (const auto& call : calls->second)
      out.push_back({facts::where(call.file, call.line, call.column), call.file, call.callerUsr,
                     call.inMacro, call.inLambda, call.rparen, call.written, call.argBegins,
                     &call.sources});
  return out;
}

bool Planner::close(const std::string& start, const rules::ThreadRule& rule, Closure& c,
                    std::string& fix, std::string& why) {
  std::vector<std::string> work{start};
  c.functions.insert(start);
  auto fail = [&](const std::string& f, const std::string& w) {
    fix = f;
    why = w;
    return false;
  };
  const std::string shape = rules::shapeOfTypeName(rule.type);
  while (!work.empty()) {
    std::string usr = work.back();
    work.pop_back();
    auto fit = inv_.program.functions.find(usr);
    if (fit == inv_.program.functions.end())
      return fail("open_call_graph", "a caller is not a function gridlock indexed");
    const facts::FunctionFact& fn = fit->second;
    if (fn.isConstructor && fn.params.empty())
      return fail("open_call_graph", fn.name + " is a default constructor: constructions "
                                               "without an argument list are not all visible");
    std::string simple = fn.name.substr(fn.name.rfind(':') == std::string::npos
                                            ? 0
                                            : fn.name.rfind(':') + 1);
    if (simple.rfind("operator", 0) == 0 && simple.size() > 8 &&
        !std::isalnum(static_cast<unsigned char>(simple[8])) && simple[8] != '_')
      return fail("open_call_graph", fn.name + " is an operator: it cannot take a parameter");
    if (fn.isPublicApi)
      return fail("public_api", fn.name + " is declared in a public header: a new parameter "
                                          "breaks callers outside the codebase");
    if (fn.isVirtual || !fn.overrides.empty())
      return fail("virtual_dispatch", fn.name + " is virtual");
    if (fn.name == "main") return fail("open_call_graph", "main cannot take a parameter");
    if (facts_->addressTaken.count(usr))
      return fail("function_pointer",
                  fn.name + "'s address is taken: calls through the pointer are not seen");
    if (auto sk = facts_->skippedNames.find(simple); sk != facts_->skippedNames.end())
      return fail("open_call_graph",
                  fn.name + " is named in code this build leaves out (" + sk->second +
                      "): a call there would not get the argument");
    auto lists = facts_->lists.find(usr);
    if (lists == facts_->lists.end() || lists->second.empty())
      return fail("open_call_graph", "no declaration of " + fn.name + " under the root");
    bool isTemplate = false;
    for (const auto& l : lists->second) {
      if (const std::string* why = held(l.file))
        return fail("compile_error", "declared in " + l.file + ", whose rewritten TU did not "
                                     "compile (" + *why + ")");
      isTemplate = isTemplate || l.isTemplate;
      if (l.inMacro) return fail("macro", fn.name + " is declared in a macro");
    }
    if (isTemplate) {
      // Another declaration of that name (an explicit specialization, an overload) would
      // have to change with it.
      if (auto same = byName_.find(fn.name); same != byName_.end() && same->second.size() > 1)
        return fail("open_call_graph", fn.name + " is a template with specializations or "
                                                 "overloads of the same name");
      // A call whose callee depends on a template parameter is seen only where an
      // instantiation resolved it: one no instantiation showed would not get the argument.
      if (auto deps = facts_->dependentCalls.find(simple); deps != facts_->dependentCalls.end())
        for (const auto& d : deps->second) {
          // Resolved there by some instantiation: to this function (a caller like any
          // other), or to another one.
          if (calleesAt().count({d.file, d.rparen})) continue;
            return fail("open_call_graph",
                        fn.name + " may be called at " + d.file + ":" + std::to_string(d.line) +
                            " in a template no translation unit instantiates: that call "
                            "would not get the argument");
        }
    }
    const bool last = rule.position == "last";
    unsigned k = 0;
    while (k < fn.params.size() && (last || !fn.params[k].hasDefault)) ++k;
    for (const auto& prm : fn.params)
      if (prm.name == rule.name)
        return fail("name_clash", fn.name + " already has a parameter named " + rule.name);
    if (overloadClash(fn, k, rule))
      return fail("name_clash", "another overload of " + fn.name +
                                    " already takes the parameter list it would get");
    c.position[usr] = k;
    for (const Caller& call : callersOf(fn)) {
      if (call.inMacro) return fail("macro", "the call at " + call.site + " is spelled in a macro");
      if (const std::string* why = held(call.file))
        return fail("compile_error", "called at " + call.site + ", whose rewritten TU did not "
                                     "compile (" + *why + ")");
      if (call.inLambda)
        return fail("lambda", "the call at " + call.site + " is inside a lambda, where the "
                              "caller's parameter would have to be captured");
      if (call.callerUsr.empty())
        return fail("open_call_graph", fn.name + " is called at file scope (" + call.site + ")");
      if (call.rparen == 0)
        return fail("open_call_graph", "the construction at " + call.site +
                                           " has no argument list to add to (implicit)");
      if (k < call.written && (k >= call.argBegins.size() || call.argBegins[k] == 0))
        return fail("macro", "the arguments at " + call.site + " are written in a macro");
      const facts::FunctionFact* caller = nullptr;
      if (auto it = inv_.program.functions.find(call.callerUsr);
          it != inv_.program.functions.end())
        caller = &it->second;
      std::string arg;
      bool edge = rules_.placeAny(call.file, call.file.empty() || call.file[0] != '/') ==
                  rules::Placement::Edge;
      if (edge || (caller && caller->name == "main")) {
        arg = rule.edge;
      } else if (call.sources) {
        bool field = false;
        if (const facts::SourceFact* src = rules::pickSource(
                *call.sources, rule.yields == "group" ? rule.group : "", rule.yields, &field)) {
          std::string from;
          std::string spelling = rules::spellPicked(*src, field, rule.group, &from);
          arg = rules::adaptShape(spelling, from, shape);
        }
      }
      if (arg.empty()) {
        if (!caller)
          return fail("open_call_graph", "the caller at " + call.site + " is not indexed");
        arg = rule.name;
        if (c.functions.insert(call.callerUsr).second) work.push_back(call.callerUsr);
      }
      // Last: the defaults the call left out are written before the new argument.
      std::string spelled;
      for (unsigned j = call.written; last && j < fn.params.size(); ++j) {
        if (!portableDefault(fn.params[j].defaultText))
          return fail("default_argument",
                      "the call at " + call.site + " leaves out " + fn.params[j].name +
                          ", whose default (" + fn.params[j].defaultText +
                          ") may not mean the same there");
        spelled += fn.params[j].defaultText + ", ";
      }
      if (k < call.written)
        c.args[{call.file, call.argBegins[k]}] = {arg + ", ", call.site};
      else
        c.args[{call.file, call.rparen}] = {(call.written ? ", " : "") + spelled + arg,
                                            call.site};
      if (arg == rule.edge && !rule.include.empty()) c.edgeFiles.insert(call.file);
    }
  }
  return true;
}

std::string Planner::threadValue(const facts::Read& r, const rules::ThreadRule& rule,
                                 bool& include) {
  include = false;
  if (r.yields == "collection") return rule.pointer ? "(*" + rule.name + ")" : rule.name;
  std::string g = rule.name;
  // A pointer or smart pointer parameter reaches the group with `->`, whatever the pack says.
  bool pointer = rule.pointer || rules::shapeOfTypeName(rule.type) != "value";
  if (rule.yields == "collection") {
    g = rule.name + (rule.pointer ? "->" : ".") + r.group;
    pointer = true;
  }
  return valueFrom(r, g, pointer, include);
}

void Planner::thread(Plan& p) {
  // Reads that need a parameter, by the function that holds them.
  std::map<std::string, std::vector<facts::Read*>> byFunction;
  for (auto& r : p.reads) {
    if (r.fix != "thread" || r.kind == "laundered" || r.kind == "global_state") continue;
    const rules::RewriteRules* pack = packRules(r);
    if (!pack || pack->thread.type.empty()) {
      r.fixDetail += "; the rule pack has no rewrite.thread";
      continue;
    }
    const rules::ThreadRule& rule = pack->thread;
    if (rule.yields == "collection" && r.yields != "collection" &&
        !rules_.collectionHolds(rule.type, r.group)) {
      left(r, "no_source", "no " + r.group + " group in scope, and the collection the pack "
                           "threads (" + rule.type + ") holds no " + r.group + " group");
      continue;
    }
    if (rule.yields == "group" && !(r.group == rule.group && r.yields != "collection")) {
      left(r, "no_source", "no " + r.group + " group in scope, and the pack threads only " +
                               rule.group);
      functionLevel(r);
      continue;
    }
    std::string usr = r.enclosingUsr;
    if (usr.empty() || !inv_.program.functions.count(usr)) {
      auto it = byName_.find(r.enclosing);
      if (it == byName_.end() || it->second.size() != 1) {
        left(r, "open_call_graph", r.enclosing + " is overloaded or not indexed");
        functionLevel(r);
        continue;
      }
      usr = it->second[0]->usr;
    }
    byFunction[usr].push_back(&r);
  }
  Closure all;
  std::map<std::string, const rules::ThreadRule*> ruleOf;
  for (auto& [usr, reads] : byFunction) {
    const rules::ThreadRule& rule = packRules(*reads[0])->thread;
    Closure c;
    std::string fix, why;
    if (!close(usr, rule, c, fix, why)) {
      for (facts::Read* r : reads) {
        left(*r, fix, "cannot thread " + rule.name + ": " + why);
        functionLevel(*r);
      }
      continue;
    }
    bool clash = false;
    for (const auto& f : c.functions)
      if (auto it = ruleOf.find(f); it != ruleOf.end() && it->second != &rule) clash = true;
    if (clash) {
      for (facts::Read* r : reads) {
        left(*r, "open_call_graph", "another pack threads a parameter through the same calls");
        functionLevel(*r);
      }
      continue;
    }
    for (const auto& f : c.functions) ruleOf[f] = &rule;
    all.functions.insert(c.functions.begin(), c.functions.end());
    all.position.insert(c.position.begin(), c.position.end());
    for (auto& [k, v] : c.args) all.args[k] = v;
    for (const auto& f : c.edgeFiles) p.includes.push_back({f, rule.include});
    for (facts::Read* r : reads) {
      bool include = false;
      std::string text = threadValue(*r, rule, include);
      if (text.empty()) {
        left(*r, "no_spelling", "the rule pack says nothing about spelling a " + r->yields);
        continue;
      }
      p.edits.push_back({r->file, r->offset, r->length, text, at(*r) + " thread"});
      if (include)
        if (const rules::RewriteRules* pack = packRules(*r); pack && !pack->spellInclude.empty())
          p.includes.push_back({r->file, pack->spellInclude});
      r->fix = "thread";
      r->fixDetail = "replaced with " + text + ", " + rule.name + " threaded through " +
                     std::to_string(c.functions.size()) + " function(s)";
      ++p.threaded;
    }
  }
  for (const auto& usr : all.functions) {
    const rules::ThreadRule& rule = *ruleOf[usr];
    std::string decl = rule.type + " " + rule.name;
    unsigned k = all.position.at(usr);
    std::string what = " parameter list of " + inv_.program.functions.at(usr).name;
    for (const auto& l : facts_->lists.at(usr)) {
      if (!rule.include.empty()) p.includes.push_back({l.file, rule.include});
      // Last: defaults cannot precede a parameter without one.
      bool atEnd = k >= l.paramBegins.size() && l.written > 0;
      bool merged = false;
      for (size_t j = 0; rule.position == "last" && j < l.defaults.size(); ++j) {
        auto [b, e] = l.defaults[j];
        if (b == 0 && e == 0) continue;
        // The last default runs into `)`: one edit with the new parameter.
        if (atEnd && j + 1 == l.defaults.size()) {
          p.edits.push_back({l.file, b, l.rparen - b, ", " + decl, l.file + what});
          merged = true;
        } else {
          p.edits.push_back({l.file, b, e - b, "", l.file + what + " (default)"});
        }
      }
      if (merged) continue;
      if (l.written == 0)
        p.edits.push_back({l.file, l.lparen + 1, l.rparen - l.lparen - 1, decl, l.file + what});
      else if (k < l.paramBegins.size())
        p.edits.push_back({l.file, l.paramBegins[k], 0, decl + ", ", l.file + what});
      else
        p.edits.push_back({l.file, l.rparen, 0, ", " + decl, l.file + what});
    }
    ++p.threadedFunctions;
  }
  for (const auto& [key, arg] : all.args)
    p.edits.push_back({key.first, key.second, 0, arg.first, arg.second + " argument"});
}

}  // namespace gridlock::rewrite::detail
