// Per-file extraction: one Python file's ModuleFacts (module_facts.h), from its bytes alone.
#pragma once

#include "python/module_facts.h"

#include <string>

namespace gridlock::python {

// The facts of `source`, the file `file` (root-relative, as reports name it). A file that
// does not parse still gives what its tree shows, with `errors` set. Throws GrammarError
// (grammar.h) only.
ModuleFacts extractModule(const std::string& file, std::string source);

}  // namespace gridlock::python
