// A type written where a parameter is declared: spelled relative to the namespace that
// declaration is in, as a maintainer would write it there (`parallel::GlobalEnv` inside
// `infini_train::nn`), rather than fully qualified from the pack.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::cpp {

// `type` (a pack's spelling, e.g. "const a::b::T&") with each qualified name's leading
// namespaces shared with `scope` ("a::c", the enclosing namespace; "" global) dropped:
// "const b::T&". A name written from the global namespace (`::a::T`) and a name whose every
// qualifier is shared keep their last component (`T`). Anonymous namespaces in `scope` are
// transparent.
std::string relativeTypeSpelling(const std::string& type, const std::string& scope);

// Names in scope where a type is written (ParamListFact::aliases): a namespace alias or a
// using-declaration {name, what it names}, or a using-directive {"", namespace}.
using Aliases = std::vector<std::pair<std::string, std::string>>;

// relativeTypeSpelling, and where an alias in scope names a namespace a qualified name is in
// (`nn` for "a::nn" in "a::nn::T"), through the alias when that takes no more components than
// the relative spelling ("nn::T"): the way the file's own code writes the name. A
// using-declaration may name the whole name (`T` for "a::T"); a using-directive drops its
// namespace ("nn::T" under `using namespace a;`) when that takes fewer components.
std::string typeSpellingIn(const std::string& type, const std::string& scope,
                           const Aliases& aliases);

// A declaration of `name` of `type`: "const T& name", or "const T &name" when the type
// sets its `&`/`*` apart ("const T &", as a pack's "parameter" writes it).
std::string declaration(const std::string& type, const std::string& name);

// The namespace a function is declared in, from its qualified name and, for a member, its
// class's qualified name (a member's parameter types are looked up from the class outwards).
std::string enclosingNamespace(const std::string& function, const std::string& className);

}  // namespace gridlock::rewrite::cpp
