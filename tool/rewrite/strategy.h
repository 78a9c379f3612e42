// The C++ strategies (docs/rewrite.md): each a class deriving from StrategyOf<CppState>
// (rewrite/core/strategy.h) that takes the C++ reads it knows how to remove. The planner runs
// every one once, in the order of strategies(). Adding one: a class, its header and source,
// and a line in strategies.cpp.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/cpp_state.h"

namespace gridlock::rewrite {

// Every C++ strategy, in the order the planner runs them: Substitute, PerModelState, Require,
// Thread, Store, Supply, Collapse.
const Strategies& strategies();

}  // namespace gridlock::rewrite
