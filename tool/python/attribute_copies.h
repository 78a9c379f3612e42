// A parameter copied to an attribute and the attribute passed on, in one method:
//   self.tp_group = tp_group
//   self.tp_group = get_tensor_model_parallel_group_if_none(self.tp_group)
// passes the parameter's value as surely as passing `tp_group` itself, so callers and
// laundering follow it as forwarded (Megatron's ColumnParallelLinear.__init__). Followed only
// where nothing else can have set the attribute in between: the copy is a statement of the def's
// body itself (not under an `if`, a loop or a `try`), it comes before the statement holding the
// use, and no statement from the copy to the use writes the attribute otherwise (assigns it or
// something inside it, augments it, deletes it, or binds it as a `for` or `with` target), in
// whatever nested block. A method the def calls in between could still set it: that is not
// followed (nor, likewise, a parameter rebound before it is passed on by name).
#pragma once

#include "python/syntax_tree.h"

#include <functional>
#include <string>

namespace gridlock::python {

// The parameter `use` (an argument `self.x`, `self` being `self_`, the method's first parameter)
// holds as such a copy in `body`, the def's block, or "" when none. `isParam` says whether a bare
// name is a parameter of the def.
std::string copiedParameter(const SyntaxTree& tree, Node body, Node use, const std::string& self_,
                            const std::function<bool(const std::string&)>& isParam);

}  // namespace gridlock::python
