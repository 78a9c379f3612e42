#include "rewrite/planner.h"

#include <tuple>

namespace gridlock::rewrite {
namespace detail {

std::string at(const facts::Read& r) {
  return facts::where(r.file, r.line, r.column);
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

Plan Planner::run() {
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

void Planner::threadVerdict(facts::Read& r) {
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

void Planner::laundered(facts::Read& r) {
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

bool Planner::blocked(facts::Read& r) {
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

void Planner::decide(facts::Read& r, Plan& p) {
  if (r.kind == "global_write") return;
  if (r.edge) return left(r, "none", "edge file: reads are allowed here");
  if (r.suppressed) return left(r, "none", "suppressed: " + *r.suppressed);
  if (const std::string* why = held(r.file))
    return left(r, "compile_error",
                "the rewritten " + r.file + " did not compile (" + *why +
                    "): its edits are rolled back");
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

void Planner::substitute(facts::Read& r, Plan& p) {
  const rules::RewriteRules* pack = packRules(r);
  std::string tmpl;
  if (r.yields == "state") {
    tmpl = "{g}";  // the source already names the field
  } else if (r.yields == "collection") {
    tmpl = r.sourcePointer ? "(*{g})" : "{g}";
  } else {
    tmpl = spellTemplate(r);
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

void Planner::require(facts::Read& r, Plan& p) {
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

std::string Planner::spellTemplate(const facts::Read& r) const {
  if (const rules::AccessorRule* a = rules_.accessor(r.name); a && !a->spell.empty())
    return a->spell;
  if (const rules::RewriteRules* pack = packRules(r))
    if (auto it = pack->spell.find(r.yields); it != pack->spell.end()) return it->second;
  return "";
}

std::string Planner::valueFrom(const facts::Read& r, const std::string& g, bool pointer,
                               bool& derived) {
  std::string tmpl = spellTemplate(r);
  derived = tmpl != "{g}";
  return tmpl.empty() ? "" : spell(tmpl, g, pointer);
}

}  // namespace detail

std::string spell(const std::string& tmpl, const std::string& g, bool pointer) {
  std::string out = tmpl;
  if (!pointer) detail::replaceAll(out, "{g}->", g + ".");
  detail::replaceAll(out, "{g}", g);
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

Plan plan(const index::Inventory& inv, const rules::RuleSet& rules, const ThreadFacts* thread,
          const HeldFiles* held) {
  return detail::Planner(inv, rules, thread, held).run();
}

}  // namespace gridlock::rewrite
