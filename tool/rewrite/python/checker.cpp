#include "rewrite/python/checker.h"

#include "rewrite/python/checks/verify.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace gridlock::rewrite::py {

namespace pv = checks;

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

namespace {

// Whether `text[at...]` is the call `param.method` of a whole name (not `x.tp_group.size`); with
// `param` empty, `method` called on anything.
bool callOn(const std::string& text, size_t at, const std::string& param, const std::string& m) {
  if (param.empty()) return text.compare(at, m.size() + 1, m + "(") == 0;
  const std::string call = param + "." + m;
  if (at < call.size() - m.size() || text.compare(at - param.size() - 1, call.size(), call) != 0)
    return false;
  size_t start = at - param.size() - 1;
  if (start == 0) return true;
  char before = text[start - 1];
  return !std::isalnum(static_cast<unsigned char>(before)) && before != '_' && before != '.';
}

}  // namespace

bool groupMethodOnHint(const pv::NewDiagnostic& d, const std::string& text,
                       const std::vector<GroupHint>& hints) {
  std::vector<size_t> lines{0};  // each line's first byte
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') lines.push_back(i + 1);
  auto ours = [&](const pv::Diagnostic& a) {
    if (a.kind != pv::DiagnosticKind::AttributeAccess || a.line < 1 ||
        static_cast<size_t>(a.line) > lines.size() || a.column < 1)
      return false;
    size_t at = lines[a.line - 1] + static_cast<size_t>(a.column - 1);
    for (const GroupHint& h : hints)
      for (const std::string& m : h.methods)
        if (a.message.rfind("Cannot access attribute \"" + m + "\" for class \"" + h.cls + "\"",
                            0) == 0 &&
            callOn(text, at, h.param, m))
          return true;
    return false;
  };
  size_t n = static_cast<size_t>(std::count_if(d.at.begin(), d.at.end(), ours));
  // The places the key had before the change need not be ours; the new ones must.
  return n > 0 && d.at.size() - n <= static_cast<size_t>(std::max(d.before, 0));
}

std::string checkerMissing(bool checkerMayBeMissing) {
  pv::Tools tools = pv::findTools();
  if (tools.python.empty())
    return "no python3 to compile the Python change with (/usr/bin/python3, or on PATH); nothing "
           "written";
  if (tools.pyright.empty() && !checkerMayBeMissing)
    return "the independent checker could not check the Python change: " + tools.pyrightMissing +
           "; nothing written (--python-checker=warn goes on with the compile check alone)";
  return "";
}

CheckerOutcome checkWithPyright(const index::Inventory& inv, const apply::Prepared& p,
                                const std::string& root, const RewriteOptions& options,
                                const std::map<std::string, std::vector<GroupHint>>& hints) {
  pv::Request req;
  req.root = std::filesystem::absolute(root).lexically_normal().string();
  for (const auto& c : p.changes) req.changes.push_back({c.file, c.before, c.after});
  req.checkPaths = filesToCheck(inv, p);
  req.whenMissing =
      options.checkerMayBeMissing ? pv::WhenCheckerMissing::Warn : pv::WhenCheckerMissing::Fail;
  req.pyrightTimeoutSeconds = options.pyrightTimeoutSeconds;
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
  for (pv::FileFailure& f : r.failures) {
    auto h = hints.find(f.file);
    if (!f.changed || f.compileError || h == hints.end()) continue;
    std::string text;
    for (const auto& c : req.changes)
      if (c.path == f.file) text = c.after;
    std::vector<pv::NewDiagnostic> kept;
    for (pv::NewDiagnostic& d : f.diagnostics) {
      if (!groupMethodOnHint(d, text, h->second)) {
        kept.push_back(std::move(d));
        continue;
      }
      out.log.push_back(
          "  accepted, pyright's class of a group hint lacking a method the pack "
          "spells on a group: " +
          pv::describe(d));
    }
    f.diagnostics = std::move(kept);
  }
  std::erase_if(r.failures,
                [](const pv::FileFailure& f) { return !f.compileError && f.diagnostics.empty(); });
  for (const auto& line : pv::describe(r))
    if (line.rfind("warning: ", 0) != 0) out.log.push_back("  " + line);
  out.held = pv::filesToRollBack(r, req.changes);
  return out;
}

}  // namespace gridlock::rewrite::py
