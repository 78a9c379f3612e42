#include "python/grammar.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace gridlock::python {

std::string abiProblem(unsigned abi, AbiRange range) {
  if (abi >= range.min && abi <= range.max) return "";
  return "the tree-sitter Python grammar has ABI " + std::to_string(abi) +
         ", but the tree-sitter runtime reads ABI " + std::to_string(range.min) + " to " +
         std::to_string(range.max) + " (scripts/setup.sh installs a pair that fits)";
}

const TSLanguage* pythonLanguage() {
  // The build compared parser.c's #define with api.h's; this asks the compiled grammar
  // itself, the value the runtime checks before it parses anything.
  static const std::string problem = abiProblem(ts_language_version(tree_sitter_python()));
  if (!problem.empty()) throw GrammarError(problem);
  return tree_sitter_python();
}

}  // namespace gridlock::python
