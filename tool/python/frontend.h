// The Python frontend: .py files -> facts::UnitFacts, one unit per module, for the same index,
// analyses, reports, gate, cache and merge as the C++ frontend's (docs/architecture.md, "The
// Python frontend"). Two steps: each file's facts alone, in parallel (cacheable by the file's
// bytes: module_codec.h), then the whole program, which resolves names across modules and
// applies the packs' Python rules.
#pragma once

#include "facts/by_file.h"
#include "python/cpython_check.h"
#include "python/module_facts.h"
#include "rules/rule_set.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::python {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PythonOptions {
  std::string root;  // files are read from, and named relative to, this directory
  // Where module names start, root-relative ("" the root; "src" for a src/ layout): with
  // "src", src/pkg/mod.py is module pkg.mod. Files outside it are named from the root.
  std::string packageRoot;
  unsigned jobs = 0;  // 0: all cores
  // How long python3, parsing what tree-sitter cannot read, may take no source or give no
  // answer after the last (cpython_check.h); 0: no limit.
  int cpythonTimeoutSeconds = kDefaultCPythonTimeoutSeconds;
  // Root-relative path -> contents read instead of the file on disk.
  std::map<std::string, std::string> overlay;
  // Files outside the tree's package layout (downstream checkouts' absolute paths:
  // python/downstream.h) -> their dotted module names.
  std::map<std::string, std::string> moduleNames;
};

// Every .py file under `paths` (root-relative files or directories; none: the whole root),
// root-relative, sorted, once each; directories whose names start with '.' and __pycache__
// are skipped. Throws InputError naming a path that does not exist or lies outside the root.
std::vector<std::string> findPythonFiles(const PythonOptions& options,
                                         const std::vector<std::string>& paths = {});
// The check findPythonFiles makes of one path, without listing what lies under it (a
// positional "." would walk the whole tree): throws InputError naming a path that does not
// exist or lies outside the root.
void checkPythonPath(const PythonOptions& options, const std::string& path);

// Step one: each file's facts, in the order of `files`, on `options.jobs` threads. A file
// that cannot be read is a module with that error (a parse error), never left out. A file
// tree-sitter cannot read for which CPython's parse gave no answer (cpython_check.h) stays a
// parse error that says why; `unsettled`, when given, marks each such file (1) in the order of
// `files`: a later run may settle it, so its facts are never cached.
std::vector<ModuleFacts> extractModules(const std::vector<std::string>& files,
                                        const PythonOptions& options,
                                        std::vector<char>* unsettled = nullptr);

// Step two: one unit's facts per module, in the same order: its reads (and exempt
// fallbacks), functions, classes and call sites, its parse error, the rules it defines.
std::vector<facts::UnitFacts> resolveModules(const std::vector<ModuleFacts>& modules,
                                             const rules::RuleSet& rules,
                                             const PythonOptions& options);

// Each Python rule of the packs that no scanned module defines (its name not in `seen`, the
// units' rulesSeen merged): one message each, pack by pack, e.g. "rule 'python a.get_x'
// (pack p) matched no definition in 12 Python modules". A rule that matched nothing found
// nothing: the driver warns, as it does for C++ rules.
std::vector<std::string> unmatchedPythonRules(const rules::RuleSet& rules,
                                              const std::set<std::string>& seen, size_t modules);

}  // namespace gridlock::python
