// A second opinion on files tree-sitter-python rejects: CPython's own parser, in the system's
// python3, when there is one. The pinned grammar rejects a few forms CPython accepts (a
// starred binary operation in an expression list, `return a, *(b,) * n`, valid since 3.8 and
// in Megatron-LM's cuda_graphs.py); such a file is no parse error, only lines tree-sitter
// could not read. What those lines hold is not left to chance: CPython also lists every dotted
// name of the file whose root its scope sees from outside (a module-level name, an import of
// the module, a builtin; never a parameter or a local), so the frontend finds the ones
// tree-sitter's tree lacks (python/frontend.h).
#pragma once

#include "support/run_program.h"

#include <atomic>
#include <memory>
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

// How long python3 may take no source, or give no answer after the last (scan
// --cpython-timeout): megatron/core's 510 files take CPython 1.4 s to parse in all.
constexpr int kDefaultCPythonTimeoutSeconds = 60;

// CPython's answer for sources handed over one at a time, from any thread: python3 starts at
// the first and reads each as it comes, so its start-up and its parsing run beside the rest of
// the extraction instead of after it. A file tree-sitter accepts is never handed over. python3
// runs as support::RunningProgram runs a program: in a process group of its own, stopped
// (with whatever it started) once it takes no source, or gives no answer after the last, for
// `timeoutSeconds`; a descendant holding its stdout open is never waited for; SIGINT, SIGTERM
// or SIGHUP to gridlock stops it, and answers() throws support::Interrupted.
class CPythonCheck {
 public:
  explicit CPythonCheck(int timeoutSeconds = kDefaultCPythonTimeoutSeconds)
      : timeout_(timeoutSeconds) {}
  CPythonCheck(const CPythonCheck&) = delete;
  CPythonCheck& operator=(const CPythonCheck&) = delete;
  ~CPythonCheck();  // ends the child (when answers() was not asked), never leaves it running

  // Hands `source` over; returns its place in answers().
  size_t add(const std::string& source);
  // Whether CPython compiles each source handed over (bytes, to an AST, nothing run; and
  // tells its scopes), with its dotted names, in order. None accepted when python3 gave no
  // answer (error() says why): a file tree-sitter rejects then stays a parse error. Waits for
  // the child; call once.
  std::vector<CPythonAnswer> answers();
  // Why python3 gave no answer ("could not run python3: ...", "python3 exited with status 1:
  // ...", "python3's answer is malformed: ..."); "" when it answered, or was never asked.
  const std::string& error() const { return error_; }
  // Whether a signal came while python3 runs: the rest of the extraction is not worth doing,
  // answers() throws.
  bool interrupted() const;

 private:
  std::string whyNoAnswer(const support::ProgramResult& r) const;

  const int timeout_;
  std::mutex mutex_;
  size_t count_ = 0;
  std::unique_ptr<support::RunningProgram> child_;  // from the first source to answers()
  std::atomic<bool> started_{false};
  enum class Feeding { On, Closed, TimedOut, Interrupted } feeding_ = Feeding::On;
  std::string error_;
};

}  // namespace gridlock::python
