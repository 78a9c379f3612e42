// Which value in scope stands for a group, and how to write it where a parameter of another
// shape expects it. Clang-free: the frontend (a read's fix source) and the rewriter (a call
// site that leaves a group out) choose the same way.
#pragma once

#include "facts/facts.h"

#include <string>
#include <vector>

namespace gridlock::rules {

// The best source for a read of `group` yielding `yields` (group | size | rank | src_rank |
// collection): a collection carries every group (its field `group` is taken, a smart pointer
// in the runtime); otherwise a group source whose type rule names the group, else one whose
// name says it ("tp_group_" for tp). `field` receives whether the result is a collection's
// field. For `yields` State, `group` is the state type ("" any) and the source holds it. Null
// when nothing fits.
const facts::SourceFact* pickSource(const std::vector<facts::SourceFact>& sources,
                                    const std::string& group, facts::Yields yields,
                                    bool* field = nullptr);

// The expression for what pickSource chose: the source itself, or its field `group` (a
// collection's fields are smart pointers in the runtime). `shape` receives its shape.
std::string spellPicked(const facts::SourceFact& s, bool field, const std::string& group,
                        facts::Shape* shape = nullptr);

// An env method template (rewrite.env, written for a reference: `{env}.dp_group()`) spelled
// for the env expression `env`: `env->dp_group()` when it is a pointer or smart pointer.
std::string spellEnv(const std::string& tmpl, const std::string& env, bool pointer);

// The shape of a type from its spelling ("const gridlock::ProcessGroupCollection&": value,
// "std::shared_ptr<gridlock::ProcessGroup>": smart, "T*": pointer), for types the facts carry
// as text (a pack's thread parameter, a read's type).
facts::Shape shapeOfTypeName(const std::string& type);

// `spelling` of a value shaped `from` written where `to` is expected: `&x`, `*x`, `x.get()`,
// or `x` itself (an optional takes what its element takes); "" when no expression converts (a
// raw pointer or a value where a smart pointer is expected, anything into a unique_ptr).
std::string adaptShape(const std::string& spelling, facts::Shape from, facts::Shape to);

}  // namespace gridlock::rules
