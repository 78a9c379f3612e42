#include "pyrewrite/checker.h"

#include "python/verify/verify.h"

#include <filesystem>
#include <set>

namespace gridlock::pyrewrite {

namespace pv = python::verify;

std::vector<std::string> filesToCheck(const index::Inventory& inv, const apply::Prepared& p) {
  std::set<std::string> files;
  for (const auto& c : p.changes) files.insert(c.file);
  std::set<std::string> defined;  // functions and classes of the changed files, by USR
  for (const auto& [usr, f] : inv.program.functions)
    if (files.count(f.file)) defined.insert(usr);
  for (const auto& [usr, c] : inv.program.classes)
    if (files.count(c.file)) defined.insert(usr);
  std::set<std::string> callers;
  for (const auto& s : inv.program.sites)
    if (defined.count(s.calleeUsr) || (!s.classUsr.empty() && defined.count(s.classUsr)))
      callers.insert(s.file);
  files.insert(callers.begin(), callers.end());
  return {files.begin(), files.end()};
}

CheckerOutcome checkWithPyright(const index::Inventory& inv, const apply::Prepared& p,
                                const std::string& root, bool warnWithoutChecker) {
  pv::Request req;
  req.root = std::filesystem::absolute(root).lexically_normal().string();
  for (const auto& c : p.changes) req.changes.push_back({c.file, c.before, c.after});
  req.checkPaths = filesToCheck(inv, p);
  req.whenMissing =
      warnWithoutChecker ? pv::WhenCheckerMissing::Warn : pv::WhenCheckerMissing::Fail;
  pv::Result r = pv::verifyChange(req);
  CheckerOutcome out;
  if (r.error) {
    out.error = *r.error + "; nothing written";
    // Only pyright's absence or failure may be waived, not a bad request or a missing python3.
    if (r.error->rfind("the independent checker", 0) == 0)
      out.error += " (--python-checker=warn goes on with the compile check alone)";
    return out;
  }
  out.warnings = r.warnings;
  if (r.checker == pv::CheckerState::Ran)
    out.log.push_back("pyright " + r.checkerVersion + " checked " +
                      std::to_string(req.checkPaths.size()) + " file(s) (" +
                      std::to_string(req.changes.size()) +
                      " changed, the rest their callers): " + std::to_string(r.diagnosticsBefore) +
                      " diagnostic(s) of the compared kinds "
                      "before the change, " +
                      std::to_string(r.diagnosticsAfter) + " after");
  for (const auto& line : pv::describe(r))
    if (line.rfind("warning: ", 0) != 0) out.log.push_back("  " + line);
  out.held = pv::filesToRollBack(r, req.changes);
  return out;
}

}  // namespace gridlock::pyrewrite
