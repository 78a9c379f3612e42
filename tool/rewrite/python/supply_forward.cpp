#include "rewrite/python/supply_forward.h"

#include "rewrite/python/ts_node.h"

#include <optional>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;
using ts::same;

// What a parameter of the helper holds at the call: `True`, `False`, or the text written
// (empty: not known).
struct Call {
  PyState& s;
  const facts::SiteFact& outer;  // the call that leaves the group out
  const facts::SiteFact& inner;  // the callee's call of the helper

  std::string written(const facts::SiteFact& site, const facts::ArgFact& a) const {
    const PySource* src = s.sources.get(site.file);
    if (!src || a.length == 0 || a.offset + a.length > src->text().size()) return "";
    TSNode n = src->covering(a.offset, a.length);
    if (is<"keyword_argument">(n)) n = field<"value">(n);  // `is_expert=True`: its value
    return ts_node_is_null(n) ? "" : squeezed(src->text(n));
  }
  static std::string defaultOf(const PyState& s, const std::string& usr, size_t k) {
    auto fn = s.inv.program.functions.find(usr);
    if (fn == s.inv.program.functions.end() || k >= fn->second.params.size()) return "";
    return squeezed(fn->second.params[k].defaultText);
  }
  std::string value(size_t k) const {
    if (k >= inner.args.size()) return "";
    const facts::ArgFact& a = inner.args[k];
    if (a.passed == facts::Passed::Omitted) return defaultOf(s, inner.calleeUsr, k);
    if (a.supplied != facts::Supplied::Forwarded) return written(inner, a);
    if (a.forwardedAlso >= 0 || a.forwardedFrom < 0 ||
        static_cast<size_t>(a.forwardedFrom) >= outer.args.size())
      return "";
    const facts::ArgFact& b = outer.args[a.forwardedFrom];
    if (b.passed == facts::Passed::Omitted) return defaultOf(s, outer.calleeUsr, a.forwardedFrom);
    return written(outer, b);
  }
};

// Whether the read runs where condition `c` is `want`: true, false, or not settled (`why`).
std::optional<bool> holds(const Call& call, const PySource& src, TSNode def,
                          const std::string& holder, TSNode c, bool want, std::string& why) {
  c = ts::unparen(c);
  if (is<"not_operator">(c)) return holds(call, src, def, holder, field<"argument">(c), !want, why);
  if (is<"comparison_operator">(c)) {
    // The fallback's own guard (`tp_group is None`): the call leaves the group out.
    std::vector<TSNode> operands = namedChildren(c);
    if (operands.size() == 2 && is<"identifier">(operands[0]) && src.text(operands[0]) == holder &&
        src.text(operands[1]) == "None" && squeezed(src.text(c)).find(" is ") != std::string::npos)
      return (squeezed(src.text(c)).find(" is not ") == std::string::npos) == want;
  }
  if (is<"identifier">(c)) {
    std::vector<PyParam> ps = src.params(def);
    for (size_t k = 0; k < ps.size(); ++k)
      if (ps[k].name == src.text(c)) {
        std::string v = call.value(k);
        if (v == "True" || v == "False") return (v == "True") == want;
        break;
      }
  }
  why = "which group the helper's fallback reads depends on `" + squeezed(src.text(c)) +
        "`, not settled at this call";
  return std::nullopt;
}

// Whether fallback read `r` runs at the call: walks the ifs around it up to its def.
std::optional<bool> reached(const Call& call, const facts::Read& r, std::string& why) {
  const PySource* src = call.s.sources.get(r.file);
  if (!src) {
    why = "the helper's file cannot be read";
    return std::nullopt;
  }
  TSNode prev = src->covering(r.offset, r.length);
  TSNode def = PySource::enclosingDef(prev);
  if (ts_node_is_null(prev) || ts_node_is_null(def)) {
    why = "the helper's fallback is not where the scan saw it";
    return std::nullopt;
  }
  auto need = [&](TSNode c, bool want) {
    return holds(call, *src, def, r.holder, field<"condition">(c), want, why);
  };
  for (TSNode n = ts_node_parent(prev); !same(n, def); prev = n, n = ts_node_parent(n)) {
    std::optional<bool> ok = true;
    if (is<"conditional_expression">(n) || is<"boolean_operator">(n)) {
      why = "the helper's fallback is read in an expression's branch";
      return std::nullopt;
    }
    if ((is<"if_statement">(n) || is<"elif_clause">(n)) && same(prev, field<"consequence">(n))) {
      ok = need(n, true);
    } else if (is<"if_statement">(n) && !same(prev, field<"condition">(n))) {
      // In an elif or else: the if's condition and each elif's before it are false.
      ok = need(n, false);
      for (TSNode alt : namedChildren(n)) {
        if (same(alt, prev) || !ok || !*ok) break;
        if (is<"elif_clause">(alt)) ok = need(alt, false);
      }
    }
    if (!ok || !*ok) return ok;
  }
  return true;
}

}  // namespace

ForwardedFallback forwardedFallback(PyState& s, const facts::SiteFact& site) {
  ForwardedFallback out;
  auto fn = s.inv.program.functions.find(site.calleeUsr);
  if (fn == s.inv.program.functions.end()) return out;
  for (size_t p = 0; p < site.args.size(); ++p) {
    const facts::ArgFact& a = site.args[p];
    if (a.passed != facts::Passed::Omitted && a.supplied != facts::Supplied::Null) continue;
    for (const auto& inner : s.inv.program.sites) {
      if (inner.callerUsr != site.calleeUsr) continue;
      for (size_t k = 0; k < inner.args.size(); ++k) {
        const facts::ArgFact& f = inner.args[k];
        if (f.supplied != facts::Supplied::Forwarded || f.forwardedFrom != static_cast<int>(p) ||
            f.forwardedAlso >= 0)
          continue;
        Call call{s, site, inner};
        std::vector<const facts::Read*> runs;
        for (const auto* reads : {&s.inv.reads, &s.inv.exemptReads})
          for (const auto& r : *reads) {
            if (r.guard != facts::Guard::Fallback || r.guardFunction != inner.calleeUsr ||
                r.guardParam != static_cast<int>(k) || r.kind == facts::ReadKind::Laundered)
              continue;
            std::string why;
            std::optional<bool> ok = reached(call, r, why);
            if (!ok) return {nullptr, -1, "", why};
            if (*ok) runs.push_back(&r);
          }
        if (runs.empty()) continue;
        for (const auto* r : runs)
          if (r->group != runs[0]->group || r->yields != runs[0]->yields)
            return {nullptr, -1, "", "the helper's fallbacks reached read different groups"};
        if (p >= fn->second.params.size()) return out;
        return {runs[0], static_cast<int>(p), fn->second.params[p].name, ""};
      }
    }
  }
  return out;
}

}  // namespace gridlock::rewrite::py
