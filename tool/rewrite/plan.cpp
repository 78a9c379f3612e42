#include "rewrite/plan.h"

#include "rewrite/supply.h"
#include "rules/source_pick.h"

#include <algorithm>
#include <cctype>

#include <map>
#include <set>
#include <tuple>

namespace gridlock::rewrite {
namespace {

std::string at(const facts::Read& r) {
  return r.file + ":" + std::to_string(r.line) + ":" + std::to_string(r.column);
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

std::string escapeString(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string noSpaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

class Planner {
 public:
  Planner(const index::Inventory& inv, const rules::RuleSet& rules, const ThreadFacts* facts)
      : inv_(inv), rules_(rules), facts_(facts), supplies_(planSupplies(inv, rules)) {
    for (const auto& [usr, f] : inv.program.functions) byName_[f.name].push_back(&f);
  }

  Plan run() {
    Plan p;
    p.edits = supplies_.edits;
    p.includes = supplies_.includes;
    for (const auto& [key, s] : supplies_.bySite) p.supplied += s.ok;
    for (const auto& read : inv_.reads) {
      facts::Read r = read;
      decide(r, p);
      p.reads.push_back(std::move(r));
    }
    if (facts_) {
      thread(p);
      collapse(p);
    }
    return p;
  }

 private:
  void left(facts::Read& r, const std::string& fix, std::string detail) {
    r.fix = fix;
    r.fixDetail = std::move(detail);
  }

  const rules::RewriteRules* packRules(const facts::Read& r) const {
    const rules::AccessorRule* a = rules_.function(r.name);
    if (!a) a = rules_.macro(r.name);
    if (a) return &rules_.packs()[a->pack].rewrite;
    if (const rules::GlobalRule* g = rules_.global(r.name)) return &rules_.packs()[g->pack].rewrite;
    return nullptr;
  }

  // Spelled inside a macro of the codebase (not the rule macro itself, invoked in place).
  bool inMacro(const facts::Read& r) const { return r.macro && *r.macro != r.name; }

  // Why a read with no group in scope stays: the limits of threading a parameter into its
  // enclosing function.
  void threadVerdict(facts::Read& r) {
    auto it = byName_.find(r.enclosing);
    if (r.enclosing.empty() || it == byName_.end()) {
      left(r, "no_source",
           r.enclosing.empty() ? "at file scope: no function to take a group from"
                               : r.enclosing + " is not a function: nothing to take a group from");
      return;
    }
    std::vector<const facts::FunctionFact*> fns = it->second;
    if (auto own = inv_.program.functions.find(r.enclosingUsr);
        own != inv_.program.functions.end())
      fns = {&own->second};
    for (const facts::FunctionFact* f : fns) {
      if (f->isPublicApi) {
        left(r, "public_api",
             r.enclosing + " is declared in a public header: a new parameter breaks callers "
                           "outside the codebase");
        functionLevel(r);
        return;
      }
      if (f->isVirtual || !f->overrides.empty()) {
        left(r, "virtual_dispatch",
             r.enclosing + " is virtual: every override and every call through the base would "
                           "change together");
        functionLevel(r);
        return;
      }
    }
    if (r.kind == "laundered") {
      left(r, "open_fallback",
           "this call leaves the group out, so " + r.name + " reads " + r.launders);
      return;
    }
    left(r, "thread",
         "no group in scope: a group parameter would have to be threaded into " + r.enclosing +
             " and its callers (not done by this version)");
  }

  // A call that leaves the group out of a helper with a fallback: passes what it holds.
  void laundered(facts::Read& r) {
    auto key = supplies_.byLaundered.find(launderedKey(r));
    const SiteSupply* s = key == supplies_.byLaundered.end() ? nullptr
                                                             : &supplies_.bySite.at(key->second);
    if (s && s->ok) {
      r.fix = "substitute";
      r.fixDetail = "passes " + s->text + " instead of leaving the group to " + r.name;
      return;
    }
    threadVerdict(r);
    if (s && r.fix == "open_fallback") r.fixDetail += "; cannot pass one here: " + s->why;
  }

  // Reasons shared by every strategy that edits the read in place.
  bool blocked(facts::Read& r) {
    if (inMacro(r)) {
      left(r, "macro", "spelled in macro " + *r.macro + ": rewrite the macro by hand");
      return true;
    }
    if (!r.called) {
      left(r, "function_pointer",
           "the accessor is named, not called (a function pointer or callback)");
      return true;
    }
    if (r.inDefaultArgument) {
      left(r, "default_argument",
           "in a default argument, where no parameter or member is in scope");
      return true;
    }
    if (r.length == 0) {
      left(r, "macro", "the read has no single range in the file");
      return true;
    }
    return false;
  }

  void decide(facts::Read& r, Plan& p) {
    if (r.kind == "global_write") return;
    if (r.edge) return left(r, "none", "edge file: reads are allowed here");
    if (r.suppressed) return left(r, "none", "suppressed: " + *r.suppressed);
    if (r.kind == "laundered") return laundered(r);
    if (r.guard == "fallback") return require(r, p);
    if (blocked(r)) return;
    if (r.fix == "substitute" && r.inLambda)
      return left(r, "lambda", "inside a lambda: " + r.fixSource + " would have to be captured");
    if (r.fix == "substitute" && r.inInitializer && r.fixSource.rfind("this->", 0) == 0)
      return left(r, "initializer",
                  "in a constructor's initializer list, where " + r.fixSource +
                      " may not be initialized yet");
    if (r.fix == "substitute") return substitute(r, p);
    if (r.kind == "global_state") {
      const rules::GlobalRule* g = rules_.global(r.name);
      if (!g || g->field.empty())
        return left(r, "no_source",
                    "mutable global state that the rule pack maps to no per-model field "
                    "(globals[].field)");
      return left(r, "no_source",
                  "no " + (g->type.empty() ? std::string("per-model state") : g->type) +
                      " in scope to read " + g->field + " from");
    }
    if (r.inLambda) return left(r, "lambda", "inside a lambda with no group in scope");
    threadVerdict(r);
  }

  void substitute(facts::Read& r, Plan& p) {
    const rules::RewriteRules* pack = packRules(r);
    std::string tmpl;
    if (r.yields == "state") {
      tmpl = "{g}";  // the source already names the field
    } else if (r.yields == "collection") {
      tmpl = r.sourcePointer ? "(*{g})" : "{g}";
    } else {
      const rules::AccessorRule* a = rules_.function(r.name);
      if (!a) a = rules_.macro(r.name);
      if (a && !a->spell.empty()) {
        tmpl = a->spell;
      } else if (pack) {
        auto it = pack->spell.find(r.yields);
        if (it != pack->spell.end()) tmpl = it->second;
      }
    }
    if (tmpl.empty())
      return left(r, "no_spelling",
                  "the rule pack says nothing about spelling a " + r.yields +
                      " from a group (rewrite.spell." + r.yields + ")");
    std::string text = spell(tmpl, r.fixSource, r.sourcePointer);
    p.edits.push_back({r.file, r.offset, r.length, text, at(r) + " substitute"});
    // A derived value calls into the group's type, which a forward declaration does not give.
    if (tmpl != "{g}" && pack && !pack->spellInclude.empty())
      p.includes.push_back({r.file, pack->spellInclude});
    ++p.substituted;
    r.fix = "substitute";
    r.fixDetail = "replaced with " + text;
  }

  void require(facts::Read& r, Plan& p) {
    if (r.eagerFallback)
      return left(r, "eager_fallback",
                  "value_or evaluates the global read even when " +
                      (r.holder.empty() ? std::string("the group") : r.holder) +
                      " is given: rewrite as a test by hand");
    if (blocked(r)) return;
    if (!r.fallbackDead)
      return left(r, "open_fallback",
                  "the fallback tests " + (r.holder.empty() ? std::string("a value") : r.holder) +
                      ", not a parameter: callers cannot prove it dead");
    const facts::FunctionFact* fn = nullptr;
    if (auto it = inv_.program.functions.find(r.guardFunction); it != inv_.program.functions.end())
      fn = &it->second;
    std::string param = r.holder;
    if (fn && r.guardParam >= 0 && static_cast<size_t>(r.guardParam) < fn->params.size())
      param = fn->params[r.guardParam].name;
    std::string owner = fn ? fn->name : r.enclosing;
    if (fn && fn->isConstructor) {
      size_t pos = owner.rfind("::");
      if (pos != std::string::npos) owner = owner.substr(0, pos);
    }
    if (fn && fn->isPublicApi)
      return left(r, "public_api",
                  owner + " is declared in a public header: callers outside the codebase may "
                          "leave " + param + " out");
    std::string after;
    if (!*r.fallbackDead) {
      auto g = supplies_.byGuard.find(guardKey(r));
      if (g == supplies_.byGuard.end() || !g->second.allSupplied) {
        std::string list;
        if (g != supplies_.byGuard.end())
          for (const auto& f : g->second.failures) list += (list.empty() ? "" : "; ") + f;
        else
          for (const auto& s : r.breakingSites) list += (list.empty() ? "" : ", ") + s;
        size_t n = g != supplies_.byGuard.end() ? g->second.failures.size() : r.breakingSites.size();
        return left(r, "open_fallback",
                    std::to_string(n) + " call site(s) leave " + param +
                        " out and cannot be given it: " + list);
      }
      after = " once " + std::to_string(g->second.sites) + " call site(s) pass what they hold";
    }
    const rules::RewriteRules* pack = packRules(r);
    if (!pack || pack->requireSpell.empty())
      return left(r, "no_spelling", "the rule pack has no rewrite.require.spell");
    if (r.type.empty())
      return left(r, "no_spelling", "the read's type depends on a template parameter");
    std::string message = owner + " requires an explicit " + param;
    std::string text = pack->requireSpell;
    replaceAll(text, "{type}", r.type);
    replaceAll(text, "{message}", escapeString(message));
    p.edits.push_back({r.file, r.offset, r.length, text, at(r) + " require"});
    if (!pack->requireInclude.empty()) p.includes.push_back({r.file, pack->requireInclude});
    ++p.required;
    r.fix = "require";
    r.fixDetail = "no call site leaves " + param + " out" + after + ": fails loudly (\"" +
                  message + "\")";
  }

  // Thread: for each function holding reads that need a group, add the pack's parameter to
  // it and to every caller, recursively, until a caller holds the group in scope (a parameter,
  // a local, a member; adapted to the parameter's type) or is an edge (an edge file, or main),
  // which passes the global itself. A function is threaded only when its whole caller graph is
  // closed; otherwise its reads say why. The parameter goes before the first defaulted one
  // (defaults must trail), so calls that wrote defaulted arguments get it before them.
  struct Closure {
    std::set<std::string> functions;
    std::map<std::string, unsigned> position;  // function USR -> index of the new parameter
    // (file, offset) -> the argument inserted there, and the call's "file:line:col"
    std::map<std::pair<std::string, unsigned>, std::pair<std::string, std::string>> args;
    std::set<std::string> edgeFiles;  // files where a caller passes the global
  };

  // Whether another overload of `fn` already has the parameter list `fn` would get.
  bool overloadClash(const facts::FunctionFact& fn, unsigned k, const rules::ThreadRule& rule) {
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

  // One call or construction of a function being threaded.
  struct Caller {
    std::string site;
    std::string file;
    std::string callerUsr;
    bool inMacro = false, inLambda = false;
    unsigned rparen = 0, written = 0;
    std::vector<unsigned> argBegins;
    const std::vector<facts::SourceFact>* sources = nullptr;
  };

  std::vector<Caller> callersOf(const facts::FunctionFact& fn) {
    std::vector<Caller> out;
    if (fn.isConstructor) {
      auto [lo, hi] = inv_.program.sitesByCallee.equal_range(fn.usr);
      for (auto it = lo; it != hi; ++it) {
        const facts::SiteFact& s = inv_.program.sites[it->second];
        Caller c{s.file + ":" + std::to_string(s.line) + ":" + std::to_string(s.column), s.file,
                 s.callerUsr, s.inMacro, false, s.rparen, s.written, {}, &s.sources};
        for (unsigned i = 0; i < s.written && i < s.args.size(); ++i)
          c.argBegins.push_back(s.args[i].length ? s.args[i].offset : 0);
        out.push_back(std::move(c));
      }
      return out;
    }
    if (auto calls = facts_->calls.find(fn.usr); calls != facts_->calls.end())
      for (const auto& call : calls->second)
        out.push_back({call.file + ":" + std::to_string(call.line) + ":" +
                           std::to_string(call.column),
                       call.file, call.callerUsr, call.inMacro, call.inLambda, call.rparen,
                       call.written, call.argBegins, &call.sources});
    return out;
  }

  bool close(const std::string& start, const rules::ThreadRule& rule, Closure& c,
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

  // The callees of every call resolved at (file, closing parenthesis).
  const std::set<std::pair<std::string, unsigned>>& calleesAt() {
    if (calleesAt_.empty() && facts_)
      for (const auto& [calleeUsr, cs] : facts_->calls)
        for (const auto& call : cs) calleesAt_.emplace(call.file, call.rparen);
    return calleesAt_;
  }

  // Reads whose function cannot take a parameter (public, virtual, an open caller graph):
  // Collapse may still turn several of them into one lookup.
  static std::string readKey(const facts::Read& r) {
    return r.file + ":" + std::to_string(r.offset) + ":" + std::to_string(r.line) + ":" +
           std::to_string(r.column);
  }
  void functionLevel(const facts::Read& r) { functionLevel_.insert(readKey(r)); }

  // The value a read becomes from the group expression `g` (a pointer or smart pointer when
  // `pointer`); "" when the pack does not say how to spell it. `derived`: more than `{g}`.
  std::string valueFrom(const facts::Read& r, const std::string& g, bool pointer, bool& derived) {
    std::string tmpl;
    const rules::AccessorRule* a = rules_.function(r.name);
    if (!a) a = rules_.macro(r.name);
    if (a && !a->spell.empty()) tmpl = a->spell;
    const rules::RewriteRules* pack = packRules(r);
    if (tmpl.empty() && pack)
      if (auto it = pack->spell.find(r.yields); it != pack->spell.end()) tmpl = it->second;
    derived = tmpl != "{g}";
    return tmpl.empty() ? "" : spell(tmpl, g, pointer);
  }

  // Collapse: in a function Thread could not change, two or more reads of groups that one
  // collection holds become one lookup of that collection at the top of the body (the pack's
  // rewrite.collapse) and fields of it: one global read instead of several, and one place to
  // pass the collection in once the function can take it.
  void collapse(Plan& p) {
    std::map<std::string, std::vector<facts::Read*>> byFunction;
    for (auto& r : p.reads) {
      if (!functionLevel_.count(readKey(r)) || r.kind != "accessor" || r.group.empty() ||
          r.yields == "collection" || !r.called || r.inLambda || r.inInitializer ||
          r.inDefaultArgument || inMacro(r) || r.length == 0 || r.enclosingUsr.empty())
        continue;
      const rules::RewriteRules* pack = packRules(r);
      if (!pack || pack->collapse.lookup.empty()) continue;
      byFunction[r.enclosingUsr].push_back(&r);
    }
    for (auto& [usr, reads] : byFunction) {
      const rules::CollapseRule& rule = packRules(*reads[0])->collapse;
      const facts::ParamListFact* def = nullptr;
      if (auto lists = facts_->lists.find(usr); lists != facts_->lists.end())
        for (const auto& l : lists->second)
          if (l.bodyFirst) def = &l;
      if (!def || def->file != reads[0]->file) continue;
      const facts::FunctionFact& fn = inv_.program.functions.at(usr);
      bool clash = std::find(def->bodyNames.begin(), def->bodyNames.end(), rule.name) !=
                   def->bodyNames.end();
      for (const auto& prm : fn.params) clash = clash || prm.name == rule.name;
      std::vector<std::pair<facts::Read*, std::string>> planned;
      bool derived = false;
      for (facts::Read* r : reads) {
        if (&packRules(*r)->collapse != &rule || r->offset < def->bodyFirst) continue;
        bool d = false;
        std::string text = valueFrom(*r, rule.name + "." + r->group, true, d);
        if (text.empty()) continue;
        derived = derived || d;
        planned.emplace_back(r, text);
      }
      if (planned.size() < 2) continue;
      if (clash) {
        for (auto& [r, text] : planned)
          r->fixDetail += "; not collapsed: " + fn.name + " already declares " + rule.name;
        continue;
      }
      std::string decl = rule.type + " " + rule.name + " = " + rule.lookup + ";" +
                         (def->bodyIndented ? "\n" + def->bodyIndent : std::string(" "));
      bool declared = false;
      for (auto& [r, text] : planned) {
        std::string why = r->fixDetail;
        // A read that starts the body takes the declaration in the same edit.
        std::string edit = r->offset == def->bodyFirst && !declared ? decl + text : text;
        declared = declared || r->offset == def->bodyFirst;
        p.edits.push_back({r->file, r->offset, r->length, edit, at(*r) + " collapse"});
        r->fix = "collapse";
        r->fixDetail = "replaced with " + text + ": one lookup (" + rule.name + ") for " +
                       std::to_string(planned.size()) + " reads of " + fn.name + ", which " +
                       "could not be threaded (" + why + ")";
        ++p.collapsed;
      }
      if (!declared)
        p.edits.push_back({def->file, def->bodyFirst, 0, decl, def->file + " collapse of " + fn.name});
      if (!rule.include.empty()) p.includes.push_back({def->file, rule.include});
      if (derived)
        if (const rules::RewriteRules* pack = packRules(*planned[0].first);
            pack && !pack->spellInclude.empty())
          p.includes.push_back({def->file, pack->spellInclude});
      ++p.collapsedFunctions;
    }
  }

  std::string threadValue(const facts::Read& r, const rules::ThreadRule& rule, bool& include) {
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

  void thread(Plan& p) {
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

  const index::Inventory& inv_;
  const rules::RuleSet& rules_;
  const ThreadFacts* facts_;
  Supplies supplies_;
  std::set<std::string> functionLevel_;
  std::set<std::pair<std::string, unsigned>> calleesAt_;
  std::map<std::string, std::vector<const facts::FunctionFact*>> byName_;
};

}  // namespace

std::string spell(const std::string& tmpl, const std::string& g, bool pointer) {
  std::string out = tmpl;
  if (!pointer) replaceAll(out, "{g}->", g + ".");
  replaceAll(out, "{g}", g);
  return out;
}

void ThreadFacts::add(const std::vector<facts::TuFacts>& tus) {
  std::set<std::pair<std::string, unsigned>> seenLists;
  std::set<std::tuple<std::string, unsigned, std::string>> seenCalls;
  std::set<std::tuple<std::string, unsigned, std::string>> seenDependent;
  for (const auto& [name, ds] : dependentCalls)
    for (const auto& d : ds) seenDependent.emplace(d.file, d.rparen, d.name);
  for (const auto& [usr, ls] : lists)
    for (const auto& l : ls) seenLists.emplace(l.file, l.lparen);
  for (const auto& [usr, cs] : calls)
    for (const auto& c : cs) seenCalls.emplace(c.file, c.rparen, c.calleeUsr);
  for (const auto& tu : tus) {
    for (const auto& l : tu.paramLists)
      if (seenLists.emplace(l.file, l.lparen).second) lists[l.usr].push_back(l);
    for (const auto& c : tu.calls)
      if (seenCalls.emplace(c.file, c.rparen, c.calleeUsr).second) calls[c.calleeUsr].push_back(c);
    addressTaken.insert(tu.addressTaken.begin(), tu.addressTaken.end());
    for (const auto& d : tu.dependentCalls)
      if (seenDependent.emplace(d.file, d.rparen, d.name).second)
        dependentCalls[d.name].push_back(d);
    skippedNames.insert(tu.skippedNames.begin(), tu.skippedNames.end());
  }
}

Plan plan(const index::Inventory& inv, const rules::RuleSet& rules, const ThreadFacts* thread) {
  return Planner(inv, rules, thread).run();
}

}  // namespace gridlock::rewrite
