// Type hints on the parameters Thread adds (docs/rewrite.md, "Python"): they follow the
// function's own style. A def that annotates any parameter or its return gets one; an
// unannotated def none. A group is `torch.distributed.ProcessGroup` as the file reaches it
// (`dist.ProcessGroup` after `import torch.distributed as dist`, `ProcessGroup` after `from
// torch.distributed import ProcessGroup`; `import torch.distributed` is added when nothing
// imports the submodule, `import torch` alone included); a
// collection is the class whose shim the graph read (`ProcessGroupCollection`), imported from
// its module where the file does not bind it; a keyword's is `Optional[...]`, `Optional`
// imported from typing where the file does not bind it (rewrite/python/import_add.h). Internal to
// tool/rewrite/python.
#pragma once

#include "rewrite/python/thread_graph.h"

#include <string>

namespace gridlock::rewrite::py {

// How `fn` declares the graph's parameter: `cp_group`, `cp_group: torch.distributed.ProcessGroup`,
// or for a keyword `cp_group=None`, `cp_group: Optional[torch.distributed.ProcessGroup] = None`.
// Adds to `s` the imports the hint needs.
std::string declaration(PyState& s, const ThreadGraph& g, const ThreadFn& fn);

}  // namespace gridlock::rewrite::py
