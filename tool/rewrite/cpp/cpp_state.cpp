#include "rewrite/cpp/cpp_state.h"

#include "rewrite/cpp/include_placement.h"
#include "rewrite/cpp/type_spelling.h"
#include "rules/source_pick.h"
#include "support/strings.h"

#include <cctype>

namespace gridlock::rewrite::cpp {

using facts::Left;

std::string at(const facts::Read& r) { return facts::where(r.file, r.line, r.column); }

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

std::string spell(const std::string& tmpl, const std::string& g, bool pointer) {
  std::string out = tmpl;
  if (!pointer) support::replaceAll(out, "{g}->", g + ".");
  support::replaceAll(out, "{g}", g);
  return out;
}

namespace {

const HeldFiles& orNone(const HeldFiles* held) {
  static const HeldFiles none;
  return held ? *held : none;
}

}  // namespace

CppState::CppState(const index::Inventory& inventory, const rules::RuleSet& ruleSet,
                   const HeldFiles* held)
    : PlanState(inventory, ruleSet, orNone(held), kLanguage) {
  for (const auto& [usr, f] : inventory.program.functions) byName_[f.name].push_back(&f);
}

void CppState::replaceRead(size_t i, const std::string& text, bool derived,
                           facts::Strategy strategy) {
  const facts::Read& r = read(i);
  plan.edits.push_back(
      {r.file, r.offset, r.length, text, strategy, at(r) + " " + facts::str(strategy)});
  if (const rules::RewriteRules* pack = packRules(r);
      derived && pack && !pack->spellInclude.empty())
    include({r.file, pack->spellInclude});
}

void CppState::include(Include i) {
  plan.fixNotes.emplace(i.file, "#include " + i.header);
  includes.push_back(std::move(i));
}

void CppState::includeType(const std::string& file, const rules::ThreadRule& rule,
                           bool definition) {
  if (rule.include.empty()) return;
  const bool byReference = rule.type.ends_with("&") || rule.type.ends_with("*");
  const bool declareOnly = !definition && isHeaderFile(file) && byReference;
  include({file, rule.include, declareOnly ? rule.forwardDeclaration : ""});
}

std::string CppState::namespaceOf(const facts::FunctionFact& fn) const {
  std::string className;
  if (auto c = inv.program.classes.find(fn.classUsr); c != inv.program.classes.end())
    className = c->second.name;
  return enclosingNamespace(fn.name, className);
}

const facts::ParamListFact* CppState::definitionIn(const std::string& usr,
                                                   const std::string& file) const {
  if (auto lists = inv.rewrite.lists.find(usr); lists != inv.rewrite.lists.end())
    for (const auto& l : lists->second)
      if (l.definition && l.file == file) return &l;
  return nullptr;
}

std::string CppState::edgeIn(const rules::ThreadRule& rule, const facts::FunctionFact* caller,
                             const std::string& file) const {
  if (!caller) return rule.edge;
  const facts::ParamListFact* def = definitionIn(caller->usr, file);
  return typeSpellingIn(rule.edge, namespaceOf(*caller), def ? def->aliases : Aliases{});
}

const std::vector<const facts::FunctionFact*>* CppState::functionsNamed(
    const std::string& name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : &it->second;
}

const Supplies& CppState::supplies() {
  if (!supplies_) supplies_ = planSupplies(inv, rules, &heldFiles());
  return *supplies_;
}

bool CppState::blocked(size_t i) {
  const facts::Read& r = read(i);
  if (inMacro(r)) {
    leave(i, Left::Macro, "spelled in macro " + *r.macro + ": rewrite the macro by hand");
    return true;
  }
  if (!r.called) {
    leave(i, Left::FunctionPointer,
          "the accessor is named, not called (a function pointer or callback)");
    return true;
  }
  if (r.inDefaultArgument) {
    leave(i, Left::DefaultArgument,
          "in a default argument, where no parameter or member is in scope");
    return true;
  }
  if (r.length == 0) {
    leave(i, Left::Macro, "the read has no single range in the file");
    return true;
  }
  return false;
}

bool CppState::sourceBlocked(size_t i) {
  const facts::Read& r = read(i);
  if (r.inLambda) {
    leave(i, Left::Lambda, "inside a lambda: " + r.hint.source + " would have to be captured");
    return true;
  }
  if (r.inInitializer && r.hint.source.rfind("this->", 0) == 0) {
    leave(i, Left::Initializer,
          "in a constructor's initializer list, where " + r.hint.source +
              " may not be initialized yet");
    return true;
  }
  return false;
}

bool CppState::noEnclosingFunction(size_t i) {
  const facts::Read& r = read(i);
  if (!r.enclosing.empty() && functionsNamed(r.enclosing)) return false;
  leave(i, Left::NoSource,
        r.enclosing.empty() ? "at file scope: no function to take a group from"
                            : r.enclosing + " is not a function: nothing to take a group from");
  return true;
}

bool CppState::functionLimits(size_t i) {
  const facts::Read& r = read(i);
  const std::vector<const facts::FunctionFact*>* named = functionsNamed(r.enclosing);
  if (!named) return false;
  std::vector<const facts::FunctionFact*> fns = *named;
  if (auto own = inv.program.functions.find(r.enclosingUsr); own != inv.program.functions.end())
    fns = {&own->second};
  for (const facts::FunctionFact* f : fns) {
    if (f->isPublicApi) {
      leave(i, Left::PublicApi,
            r.enclosing +
                " is declared in a public header: a new parameter breaks callers "
                "outside the codebase");
      markFunctionLevel(i);
      return true;
    }
    if (f->isVirtual || !f->overrides.empty()) {
      leave(i, Left::VirtualDispatch,
            r.enclosing +
                " is virtual: every override and every call through the base would "
                "change together");
      markFunctionLevel(i);
      return true;
    }
  }
  return false;
}

std::string CppState::spellTemplate(const facts::Read& r) const {
  if (const rules::AccessorRule* a = rules.accessor(r.name); a && !a->spell.empty())
    return a->spell;
  if (const rules::RewriteRules* pack = packRules(r))
    if (auto it = pack->spell.find(r.yields); it != pack->spell.end()) return it->second;
  return "";
}

CppState::Spelled CppState::spellRead(const facts::Read& r, const std::string& tmpl,
                                      const std::string& g, bool pointer) const {
  Spelled out;
  out.derived = tmpl != "{g}";
  std::string text = spell(tmpl, g, pointer);
  for (size_t i = 0; i < r.arguments.size(); ++i) {
    const std::string slot = "{" + std::to_string(i) + "}";
    if (r.arguments[i].empty()) {
      out.why = "argument " + std::to_string(i) + " of the call is spelled in a macro";
      return out;
    }
    if (text.find(slot) == std::string::npos) {
      std::string written;
      for (const auto& a : r.arguments) written += (written.empty() ? "" : ", ") + a;
      out.why = "the call passes (" + written + "), which the spelling " + tmpl +
                " does not carry (name them {0}, {1}, ...): replacing it would drop them";
      return out;
    }
    support::replaceAll(text, slot, r.arguments[i]);
  }
  if (size_t open = text.find('{'); open != std::string::npos && open + 1 < text.size() &&
                                    std::isdigit(static_cast<unsigned char>(text[open + 1]))) {
    out.why = "the spelling " + tmpl + " names an argument the call does not have";
    return out;
  }
  out.text = text;
  return out;
}

CppState::Spelled CppState::valueFrom(const facts::Read& r, const std::string& g,
                                      bool pointer) const {
  std::string tmpl = spellTemplate(r);
  if (tmpl.empty()) {
    Spelled none;
    none.why = r.yields == facts::Yields::Value
                   ? r.name + " yields a value the pack's templates do not derive from a group: " +
                         "spell it in the accessor's rule (accessors[].spell)"
                   : "the rule pack says nothing about spelling a " + facts::str(r.yields) +
                         " from a group (rewrite.spell." + facts::str(r.yields) + ")";
    return none;
  }
  return spellRead(r, tmpl, g, pointer);
}

CppState::Spelled CppState::valueFromEnv(const facts::Read& r, const std::string& env,
                                         bool pointer) const {
  const rules::RewriteRules* pack = packRules(r);
  Spelled none;
  if (!pack || pack->env.type.empty()) {
    none.why = "the rule pack has no rewrite.env";
    return none;
  }
  const rules::EnvRule& e = pack->env;
  if (r.yields == facts::Yields::Collection) {  // the env itself (the singleton's lookup)
    Spelled whole = spellRead(r, "{g}", pointer ? "(*" + env + ")" : env, false);
    return whole;
  }
  if (const rules::AccessorRule* a = rules.accessor(r.name); a && !a->env.empty()) {
    // The accessor's own method of the env (accessors[].env), before the group's.
    Spelled own = spellRead(r, rules::spellEnv(a->env, env, pointer), "", false);
    own.derived = false;
    return own;
  }
  if (r.yields == facts::Yields::Value) {
    none.why = r.name + " yields a value no group method gives: name its method of the env (" +
               e.type + ") in the accessor's rule (accessors[].env)";
    return none;
  }
  auto methods = e.methods.find(r.group);
  if (methods == e.methods.end()) {
    none.why = "the env (" + e.type + ") has no method for the " + r.group +
               " group (rewrite.env.methods." + r.group + ")";
    return none;
  }
  if (auto m = methods->second.find(r.yields); m != methods->second.end()) {
    // The method is the env's own: its type is the one the parameter or local names.
    Spelled direct = spellRead(r, rules::spellEnv(m->second, env, pointer), "", false);
    direct.derived = false;
    return direct;
  }
  auto g = methods->second.find(facts::Yields::Group);
  if (g == methods->second.end()) {
    none.why = "the env (" + e.type + ") has no method for the " + r.group + " group's " +
               facts::str(r.yields) + " nor for the group (rewrite.env.methods." + r.group + ")";
    return none;
  }
  // Derived from the group the method returns (a pointer or smart pointer, as accessors do).
  return valueFrom(r, rules::spellEnv(g->second, env, pointer), true);
}

}  // namespace gridlock::rewrite::cpp
