// Require's model of module specs (the pack's rewrite.python.specs; docs/rewrite.md, "Python",
// `require`). Megatron-LM names its layers in specs and builds them where the scan binds no call:
//   ModuleSpec(module=SelfAttention, submodules=SelfAttentionSubmodules(core_attention=DPA))
//   build_module(submodules.self_attention, config=..., pg_collection=pg_collection)
//   submodules.core_attention(config=..., pg_collection=self.pg_collection)
// A class named only where the model puts it (a spec's class, a field of a submodules class, a
// build's class) is built only by the calls below, so its fallback is decided by them as by the
// calls the scan binds.
//   field f (`S(f=C)`, `S(f=spec(module=C))`, moved to g by `S2(g=x.f)`): `x.f(...)`,
//     `build(x.f, ...)`, `build(x["f"], ...)`, as long as no read of `x.f` lets the spec out
//     (assigned, passed, returned: then it is `any`);
//   any (a spec of C assigned, returned, in a list, passed): every build call but those given
//     another class or a spec of one, and every `x.f(...)` of every field a submodules class has;
//   a build given C or a spec of C: that call.
// A get call that may return C, or a `.module` read that lets C out, refuses the class.
#pragma once

#include "rewrite/python/references.h"
#include "rewrite/python/sources.h"
#include "rules/rule_pack.h"

#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// Whether `use`, a class's name, is where the model puts a class: the class of a spec
// (`spec(module=C)`, `spec(C)`), a field of a submodules class (`S(f=C)`), or the class of a
// build call (`build(C, ...)`), each through parentheses and conditional expressions.
bool specPlacement(const rules::PythonSpecRule& rule, const NameUse& use);

struct SpecVerdict {
  std::string refused;                 // a construction the model cannot follow, or ""
  std::vector<std::string> leftOut;    // "file:line:col: why", each leaving the parameter out
  std::vector<std::string> maybeNone;  // "file:line:col: passes `x`, which may be None (why)"
};

// The constructions of the class of `init` (an __init__ in `src`) that the model finds, each
// read for `param`: `names` are the class and its subclasses without an __init__ of their own,
// `placed` their uses specPlacement took, `classes` the names of the scanned code's classes (a
// build or get given one of them builds that class).
SpecVerdict specConstructions(Sources& sources, const std::set<std::string>& files,
                              const rules::PythonRewriteRule& rule,
                              const std::vector<std::string>& names,
                              const std::vector<NameUse>& placed, const PySource& src, TSNode init,
                              const std::string& param,
                              const std::set<std::string, std::less<>>& classes);

}  // namespace gridlock::rewrite::py
