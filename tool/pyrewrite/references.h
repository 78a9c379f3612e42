// Where the Python files a plan scans name a function or class, for Thread: a function that
// gains a parameter must be reached by calls only (a reference passed elsewhere, `f` as a
// callback, would call it without the group), and an autograd Function's forward is reached
// through `Cls.apply(...)`, which the facts do not resolve.
#pragma once

#include "pyrewrite/sources.h"

#include <set>
#include <string>
#include <vector>

namespace gridlock::pyrewrite {

struct NameUse {
  std::string file;
  const PySource* src = nullptr;
  TSNode node{};  // the identifier
  TSNode call{};  // the call whose callee it is (`f(...)`, `m.f(...)`, `C.apply(...)`), or null
};

// Every identifier `name` in `files`, but a def's or class's own name and the names of import
// statements.
std::vector<NameUse> usesOf(Sources& sources, const std::set<std::string>& files,
                            const std::string& name);

// The call a use of a class is the object of: `C.apply(...)`, or a null node.
TSNode applyCall(const NameUse& use);

}  // namespace gridlock::pyrewrite
