// The keys a `**` argument is seen to carry, so that callers and laundering follow a `**kwargs`
// key by key where the dict is built in sight:
//   f(**{"tp_group": g})                 f(**dict(tp_group=g))
//   kw = {"bias": False}; f(**kw)        (complete: kw holds no tp_group, it is left out)
//   kwargs["tp_group"] = g; f(**kwargs)  (a key added in the function, to a dict or a parameter)
// A dict is complete when it is built whole in sight (a literal or `dict(...)` with literal keys
// only, bound once in the function) and the function does nothing else with it than add keys
// (`d["k"] = v`), read them, test them (`"k" in d`) and unpack it; anything else (`d.update(..)`,
// `g(d)`, a key removed) leaves its other keys unknown. A parameter (`**kwargs`) is never
// complete: the caller's caller may have put any key in it.
#pragma once

#include "python/module_facts.h"
#include "python/scopes.h"
#include "python/syntax_tree.h"

#include <functional>
#include <optional>
#include <string>

namespace gridlock::python {

struct SeenKeys {
  std::vector<Call::DictKey> keys;
  bool complete = false;
};

// What `value` (the expression after `**`, in scope `scope`; `scopeNode` the def or module
// that opened it) is seen to hold; nothing when it is not a dict in sight. `isParam` says
// whether a bare name is a parameter of the enclosing function (its value is forwarded).
std::optional<SeenKeys> dictKeys(const SyntaxTree& tree, const ScopeTable& scopes, Scope* scope,
                                 Node scopeNode, Node value,
                                 const std::function<bool(const std::string&)>& isParam);

}  // namespace gridlock::python
