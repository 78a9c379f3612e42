// The tree-sitter Python grammar (tree-sitter-python 0.23.6, compiled from the npm package
// scripts/setup.sh fetches) and the check that the tree-sitter runtime linked in reads its ABI.
#pragma once

#include <tree_sitter/api.h>

#include <stdexcept>
#include <string>

namespace gridlock::python {

class GrammarError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a grammar's ABI must be for a runtime to read it.
struct AbiRange {
  unsigned min = TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION;
  unsigned max = TREE_SITTER_LANGUAGE_VERSION;
};

// "" when a grammar of ABI `abi` can be read by a runtime reading `range`, else why not.
std::string abiProblem(unsigned abi, AbiRange range = {});

// The Python grammar, checked once against the runtime (ts_language_version): throws
// GrammarError naming both ABIs when they do not fit.
const TSLanguage* pythonLanguage();

}  // namespace gridlock::python
