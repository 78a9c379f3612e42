#include "rewrite/python/checks/verify.h"

#include "rewrite/python/checks/compile_check.h"
#include "rewrite/python/checks/pyright_run.h"
#include "rewrite/python/checks/tree_copy.h"
#include "support/interrupt.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace gridlock::rewrite::py::checks {
namespace {

namespace fs = std::filesystem;

// Bad input: what the request names that cannot be verified.
std::optional<std::string> checkRequest(const Request& req) {
  std::error_code ec;
  if (!fs::path(req.root).is_absolute() || !fs::is_directory(req.root, ec))
    return "the root to verify is not an absolute directory: " + req.root;
  for (const FileChange& c : req.changes)
    if (!insideTree(c.path)) return "a changed file lies outside the root: " + c.path;
  for (const std::string& p : req.checkPaths)
    if (!insideTree(p) && p != ".") return "a path to check lies outside the root: " + p;
  return std::nullopt;
}

FileFailure& failureOf(std::map<std::string, FileFailure>& failures, const std::string& file,
                       const std::set<std::string>& changed) {
  FileFailure& f = failures[file];
  f.file = file;
  f.changed = changed.count(file) > 0;
  return f;
}

void compileAfter(const Request& req, const Tools& tools, Result& res,
                  std::map<std::string, FileFailure>& failures,
                  const std::set<std::string>& changed) {
  std::vector<std::string> sources;
  for (const FileChange& c : req.changes) sources.push_back(c.after);
  CompileOutcome compiled = compileSources(tools.python, sources);
  if (!compiled.ran) {
    res.error = compiled.error;
    return;
  }
  for (size_t i = 0; i < req.changes.size(); ++i)
    if (compiled.failures[i])
      failureOf(failures, req.changes[i].path, changed).compileError =
          req.changes[i].path + ":" + *compiled.failures[i];
}

// pyright could not give its opinion: an error or a named warning, as the request says.
void checkerUnavailable(const Request& req, Result& res, CheckerState state,
                        const std::string& why) {
  res.checker = state;
  if (req.whenMissing == WhenCheckerMissing::Fail) {
    res.error = "the independent checker could not check the Python change: " + why;
  } else {
    res.warnings.push_back("warning: [python-checker-missing] " + why +
                           "; the change was checked by compiling it only");
  }
}

// Both pyright runs over one copy, the change laid over it between them.
void checkWithPyright(const Request& req, const Tools& tools, Result& res,
                      std::map<std::string, FileFailure>& failures,
                      const std::set<std::string>& changed) {
  // A signal while the copy exists unwinds through its destructor, which removes it.
  support::InterruptScope interrupts;
  std::optional<TreeCopy> copy;
  try {
    copy.emplace(req.root);
    copy->lay(req.changes, TreeCopy::Side::Before);
  } catch (const std::runtime_error& e) {
    res.error = e.what();
    return;
  }
  support::throwIfInterrupted();
  PyrightRun before = runPyright(tools, copy->dir(), req.checkPaths, req.pyrightTimeoutSeconds);
  if (!before.ok) return checkerUnavailable(req, res, CheckerState::Failed, before.error);
  copy->lay(req.changes, TreeCopy::Side::After);
  support::throwIfInterrupted();
  PyrightRun after = runPyright(tools, copy->dir(), req.checkPaths, req.pyrightTimeoutSeconds);
  if (!after.ok) return checkerUnavailable(req, res, CheckerState::Failed, after.error);
  res.checker = CheckerState::Ran;
  res.checkerVersion = after.report.version;
  res.filesChecked = after.report.filesAnalyzed;
  res.diagnosticsBefore = static_cast<int>(before.report.diagnostics.size());
  res.diagnosticsAfter = static_cast<int>(after.report.diagnostics.size());
  for (NewDiagnostic& n : newDiagnostics(before.report.diagnostics, after.report.diagnostics))
    failureOf(failures, n.at.front().file, changed).diagnostics.push_back(std::move(n));
}

}  // namespace

Result verifyChange(const Request& req) {
  Result res;
  if (auto bad = checkRequest(req)) {
    res.error = *bad;
    return res;
  }
  Tools tools = req.toolsGiven ? req.tools : findTools();
  if (tools.python.empty()) {
    res.error = "no python3 to compile the Python change with (/usr/bin/python3, or on PATH)";
    return res;
  }
  std::set<std::string> changed;
  for (const FileChange& c : req.changes) changed.insert(fs::path(c.path).lexically_normal());
  std::map<std::string, FileFailure> failures;
  compileAfter(req, tools, res, failures, changed);
  if (res.error) return res;
  if (tools.pyright.empty()) {
    checkerUnavailable(req, res, CheckerState::Missing, tools.pyrightMissing);
  } else {
    checkWithPyright(req, tools, res, failures, changed);
  }
  if (res.error) return res;
  for (auto& [file, f] : failures) res.failures.push_back(std::move(f));
  return res;
}

std::map<std::string, std::string> filesToRollBack(const Result& result,
                                                   const std::vector<FileChange>& changes) {
  std::map<std::string, std::string> files;
  for (const FileFailure& f : result.failures) {
    std::string first = f.compileError ? *f.compileError : describe(f.diagnostics.front());
    if (f.changed) {
      files.emplace(f.file, first);
      continue;
    }
    for (const FileChange& c : changes)
      files.emplace(fs::path(c.path).lexically_normal().string(),
                    "a file the change did not touch has a new diagnostic: " + first);
  }
  return files;
}

std::vector<std::string> describe(const Result& result) {
  std::vector<std::string> lines;
  for (const FileFailure& f : result.failures) {
    if (f.compileError) lines.push_back(*f.compileError + " [py_compile]");
    for (const NewDiagnostic& d : f.diagnostics) lines.push_back(describe(d) + " [new]");
  }
  lines.insert(lines.end(), result.warnings.begin(), result.warnings.end());
  return lines;
}

}  // namespace gridlock::rewrite::py::checks
