#include "rewrite/cpp/require.h"

#include "support/strings.h"

namespace gridlock::rewrite::cpp {
namespace {

using facts::Left;

// The function whose parameter the fallback tests, when the analysis knows it.
const facts::FunctionFact* guardedFunction(const CppState& s, const facts::Read& r) {
  auto it = s.inv.program.functions.find(r.guardFunction);
  return it == s.inv.program.functions.end() ? nullptr : &it->second;
}

// Why the call sites that leave the parameter out keep the fallback alive, or "" when Supply
// gives every one of them what it holds. `after` receives how many it gives.
std::string openSites(CppState& s, const facts::Read& r, const std::string& param,
                      std::string& after) {
  if (*r.analysis.fallbackDead) return "";
  const auto& byGuard = s.supplies().byGuard;
  auto g = byGuard.find(guardKey(r));
  if (g != byGuard.end() && g->second.allSupplied) {
    after = " once " + std::to_string(g->second.sites) + " call site(s) pass what they hold";
    return "";
  }
  std::string list;
  if (g != byGuard.end())
    for (const auto& f : g->second.failures) list += (list.empty() ? "" : "; ") + f;
  else
    for (const auto& site : r.analysis.breakingSites) list += (list.empty() ? "" : ", ") + site;
  size_t n = g != byGuard.end() ? g->second.failures.size() : r.analysis.breakingSites.size();
  return std::to_string(n) + " call site(s) leave " + param +
         " out and cannot be given it: " + list;
}

}  // namespace

void Require::runOn(CppState& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s.open(i) && s.read(i).guard == facts::Guard::Fallback &&
        s.read(i).kind != facts::ReadKind::Laundered)
      require(s, i);
}

void Require::require(CppState& s, size_t i) {
  const facts::Read& r = s.read(i);
  if (r.eagerFallback)
    return s.leave(i, Left::EagerFallback,
                   "value_or evaluates the global read even when " +
                       (r.holder.empty() ? std::string("the group") : r.holder) +
                       " is given: rewrite as a test by hand");
  if (s.blocked(i)) return;
  if (!r.analysis.fallbackDead)
    return s.leave(i, Left::OpenFallback,
                   "the fallback tests " + (r.holder.empty() ? std::string("a value") : r.holder) +
                       ", not a parameter: callers cannot prove it dead");
  const facts::FunctionFact* fn = guardedFunction(s, r);
  std::string param = r.holder;
  if (fn && r.guardParam >= 0 && static_cast<size_t>(r.guardParam) < fn->params.size())
    param = fn->params[r.guardParam].name;
  std::string owner = fn ? fn->name : r.enclosing;
  if (fn && fn->isConstructor)
    if (size_t pos = owner.rfind("::"); pos != std::string::npos) owner = owner.substr(0, pos);
  if (fn && fn->isPublicApi)
    return s.leave(i, Left::PublicApi,
                   owner +
                       " is declared in a public header: callers outside the codebase may "
                       "leave " +
                       param + " out");
  std::string after;
  if (std::string open = openSites(s, r, param, after); !open.empty())
    return s.leave(i, Left::OpenFallback, open);
  const rules::RewriteRules* pack = s.packRules(r);
  if (!pack || pack->requireSpell.empty())
    return s.leave(i, Left::NoSpelling, "the rule pack has no rewrite.require.spell");
  if (r.type.empty())
    return s.leave(i, Left::NoSpelling, "the read's type depends on a template parameter");
  std::string message = owner + " requires an explicit " + param;
  std::string text = pack->requireSpell;
  support::replaceAll(text, "{type}", r.type);
  support::replaceAll(text, "{message}", escapeString(message));
  s.plan.edits.push_back(
      {r.file, r.offset, r.length, text, facts::Strategy::Require, at(r) + " require"});
  if (!pack->requireInclude.empty()) s.include({r.file, pack->requireInclude});
  ++s.tally(facts::Strategy::Require).reads;
  s.apply(i, facts::Strategy::Require,
          "no call site leaves " + param + " out" + after + ": fails loudly (\"" + message + "\")");
}

}  // namespace gridlock::rewrite::cpp
