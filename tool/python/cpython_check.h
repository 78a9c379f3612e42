// A second opinion on files tree-sitter-python rejects: CPython's own parser, in the system's
// python3, when there is one. The pinned grammar rejects a few forms CPython accepts (a
// starred binary operation in an expression list, `return a, *(b,) * n`, valid since 3.8 and
// in Megatron-LM's cuda_graphs.py); such a file is no parse error, only lines tree-sitter
// could not read. What those lines hold is not left to chance: CPython also lists every dotted
// name of the file whose root its scope sees from outside (a module-level name, an import of
// the module, a builtin; never a parameter or a local), so the frontend finds the ones
// tree-sitter's tree lacks (python/frontend.h).
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::python {

// A dotted name as CPython's parse finds it (`ps.get_tp`).
struct CPythonRef {
  // Each name of the chain, the root first, and where it starts: 1-based line and column in
  // bytes, as tree-sitter's positions are.
  std::vector<std::string> names;
  std::vector<std::pair<unsigned, unsigned>> at;
  bool called = false;  // the chain is called
  bool write = false;   // assigned, deleted, or an item of it assigned
  // The def it is in, as the frontend names one ("C.m", "outer.inner"); "" at module level.
  std::string function;
  // The root is a name the def (or one around it) imports itself: what the import names
  // (`from ..a import b`: level 2, {a, b}), which the root stands for.
  bool imported = false;
  unsigned importLevel = 0;
  std::vector<std::string> importPath;
};

struct CPythonAnswer {
  bool accepted = false;
  std::vector<CPythonRef> refs;  // when accepted
};

// CPython's answer for sources handed over one at a time, from any thread: python3 starts at
// the first and reads each as it comes, so its start-up and its parsing run beside the rest of
// the extraction instead of after it. A file tree-sitter accepts is never handed over.
class CPythonCheck {
 public:
  CPythonCheck() = default;
  CPythonCheck(const CPythonCheck&) = delete;
  CPythonCheck& operator=(const CPythonCheck&) = delete;
  ~CPythonCheck();  // ends the child (when answers() was not asked), never leaves it running

  // Hands `source` over; returns its place in answers().
  size_t add(const std::string& source);
  // Whether CPython compiles each source handed over (bytes, to an AST, nothing run; and
  // tells its scopes), with its dotted names, in order. None accepted when no python3 can be
  // run, or it fails: a file tree-sitter rejects then stays a parse error. Waits for the
  // child; call once.
  std::vector<CPythonAnswer> answers();

 private:
  void start();
  void send(const std::string& bytes);

  std::mutex mutex_;
  size_t count_ = 0;
  bool failed_ = false;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;  // the child's stdin (a socket: no SIGPIPE) and stdout
};

}  // namespace gridlock::python
