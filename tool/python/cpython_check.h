// A second opinion on files tree-sitter-python rejects: CPython's own parser, in the system's
// python3, when there is one. The pinned grammar rejects a few forms CPython accepts (a
// starred binary operation in an expression list, `return a, *(b,) * n`, valid since 3.8 and
// in Megatron-LM's cuda_graphs.py); such a file is no parse error, only lines tree-sitter
// could not read.
#pragma once

#include <string>
#include <vector>

namespace gridlock::python {

// Whether CPython compiles each source (bytes, to an AST, nothing run). All false when no
// python3 can be run, or it fails: a file tree-sitter rejects then stays a parse error.
std::vector<bool> cpythonAccepts(const std::vector<std::string>& sources);

}  // namespace gridlock::python
