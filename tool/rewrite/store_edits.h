// Store's edits (rewrite/thread_closure.h): a class whose virtual methods or operators take
// the pack's value from a member declares that member at the end of its body, and every
// constructor that does not delegate initialises it from the parameter Thread gives it.
#pragma once

#include "rewrite/plan_state.h"

#include <map>
#include <string>

namespace gridlock::rewrite {

// The member and its initializers for each class (USR) with the rule that threads into it. A
// class derived from another of them declares none: it uses its base's, which is protected.
// Returns how many classes declare one.
size_t editStores(PlanState& s, const std::map<std::string, const rules::ThreadRule*>& classes);

// The text inserted at ClassFact::memberAt to declare `decl` ("const T &env_") with `access`
// ("private", "protected"): on its own line at the class's member indent, after the access
// label when the class ends in another access.
std::string memberDeclaration(const facts::ClassFact& k, const std::string& decl,
                              const std::string& access);

}  // namespace gridlock::rewrite
