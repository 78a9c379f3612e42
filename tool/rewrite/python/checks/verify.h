// The Python rewrite's proof beside the re-parse: every changed file compiles (py_compile's
// check, by /usr/bin/python3), and an independent checker, pyright, finds nothing new in the
// tree after the change that it did not find before it: no undefined name, no call that does
// not fit its callee, no unknown attribute, no syntax error. Both pyright runs read a private
// copy of the tree (the change laid over it second); the user's tree is only read.
#pragma once

#include "rewrite/python/checks/change.h"
#include "rewrite/python/checks/diagnostic_diff.h"
#include "rewrite/python/checks/tools.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

// How long one pyright run may take before it is stopped (a failed run): megatron/core's
// files that a rewrite touches and their callers take pyright about a minute.
inline constexpr int kDefaultPyrightTimeoutSeconds = 600;

// What happens when pyright cannot give its opinion (not installed, or it failed).
enum class WhenCheckerMissing {
  Fail,  // Result::error is set: the change must not be written
  Warn,  // a warning named [python-checker-missing]; only the compile check counts
};

struct Request {
  std::string root;                 // absolute; only read
  std::vector<FileChange> changes;  // paths relative to root
  // What pyright checks, relative to root (a pack's scope directories, say); empty: the whole
  // tree. Every other Python file of the tree is still there for imports to resolve in.
  std::vector<std::string> checkPaths;
  WhenCheckerMissing whenMissing = WhenCheckerMissing::Fail;
  Tools tools;  // findTools() unless set
  bool toolsGiven = false;
  int pyrightTimeoutSeconds = kDefaultPyrightTimeoutSeconds;  // per run; 0: none
};

// A file the change broke: roll it back.
struct FileFailure {
  std::string file;                         // relative to root
  bool changed = true;                      // false: a file the change did not touch (a caller)
  std::optional<std::string> compileError;  // "file:line:col: SyntaxError: ..."
  std::vector<NewDiagnostic> diagnostics;   // what pyright found new in it
};

enum class CheckerState { Ran, Missing, Failed };

struct Result {
  std::vector<FileFailure> failures;  // in file order; empty: the change holds
  CheckerState checker = CheckerState::Missing;
  std::string checkerVersion;  // pyright's, when it ran
  int filesChecked = 0;        // files pyright analysed per run
  int diagnosticsBefore = 0;   // of the compared kinds: the baseline the comparison tolerates
  int diagnosticsAfter = 0;
  std::vector<std::string> warnings;  // "warning: [python-checker-missing] ..."
  std::optional<std::string> error;   // set: nothing may be written (bad input, no python, or
                                      // no checker under WhenCheckerMissing::Fail)
};

// SIGINT, SIGTERM or SIGHUP while it runs (support/interrupt.h): pyright is stopped, the copy
// of the tree removed, and support::Interrupted thrown.
Result verifyChange(const Request& request);

// Every failure's first line per file, as "file:line:col: kind: message": the files to roll
// back (and hold back in the next plan). A new diagnostic in a file the change did not touch
// cannot be pinned on one changed file: then every changed file is listed, with that reason.
std::map<std::string, std::string> filesToRollBack(const Result& result,
                                                   const std::vector<FileChange>& changes);

// What a rewriter prints on stderr: each failure with all its diagnostics, then the warnings.
std::vector<std::string> describe(const Result& result);

}  // namespace gridlock::rewrite::py::checks
