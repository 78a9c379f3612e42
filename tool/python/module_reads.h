// One module's reads: its references, each resolved across the program, matched against the
// packs' Python rules (docs/scan.md "Python") and placed by the packs' scopes.
#pragma once

#include "facts/facts.h"
#include "python/module_index.h"
#include "rules/rule_set.h"

namespace gridlock::python {

// The reads of `module` into `out.reads` (and fallbacks of files no pack scans, which launder
// reads into their callers, into `out.exemptReads`), with `out.digests` for their file, and
// the rules the module defines into `out.rulesSeen`.
void collectReads(const ModuleIndex& index, size_t module, const ModuleFacts& facts,
                  const rules::RuleSet& rules, facts::TuFacts& out);

class Definitions;

// The reads the scan would miss: of the names CPython finds where tree-sitter's tree has none
// (ModuleFacts::unreadRefs), each that a pack scanning the file reads, and (with `defs`) each
// call of a scanned function or class a call may give less than every argument (a laundering
// helper's, perhaps: no site is made of it), as a syntax error at it (`file:line:col: error:
// ...`). Empty when the module's unread lines hold none.
std::vector<std::string> missedReads(const ModuleIndex& index, size_t module,
                                     const ModuleFacts& facts, const rules::RuleSet& rules,
                                     const Definitions* defs = nullptr);

// The dotted name of a function or class of `module` (`module.Class.method`), and its
// synthetic USR (`py:module.Class.method`): Python has no USRs of its own.
std::string qualifiedName(const ModuleIndex& index, size_t module, const std::string& qualname);
std::string usrOf(const std::string& dotted);

}  // namespace gridlock::python
