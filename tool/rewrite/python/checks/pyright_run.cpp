#include "rewrite/python/checks/pyright_run.h"

#include "rewrite/python/checks/verify.h"
#include "support/run_program.h"
#include "support/strings.h"

#include <stdexcept>

namespace gridlock::rewrite::py::checks {
namespace {

// The last lines of what a failed run printed, for the error.
std::string tail(const std::string& text) {
  constexpr size_t kKeep = 600;
  return text.size() <= kKeep ? text : "..." + text.substr(text.size() - kKeep);
}

}  // namespace

PyrightRun runPyright(const Tools& tools, const std::string& treeDir,
                      const std::vector<std::string>& paths, int timeoutSeconds) {
  PyrightRun run;
  support::ProgramRun program{tools.pyright, treeDir, "", timeoutSeconds};
  program.argv.push_back("--outputjson");
  if (!tools.python.empty()) {
    program.argv.push_back("--pythonpath");
    program.argv.push_back(tools.python);
  }
  program.argv.insert(program.argv.end(), paths.begin(), paths.end());
  support::ProgramResult r = support::runProgram(program);
  std::string command = support::joinWords(tools.pyright);
  if (!r.started) {
    run.error = command + " could not be run: " + r.error;
    return run;
  }
  if (r.timedOut) {
    run.error = command + " did not finish within " + std::to_string(timeoutSeconds) +
                " s and was stopped (rewrite --pyright-timeout SECONDS sets the limit; the "
                "default is " +
                std::to_string(kDefaultPyrightTimeoutSeconds) + " s)";
    return run;
  }
  if (r.exitStatus != 0 && r.exitStatus != 1) {
    run.error = command +
                (r.signal ? " was killed by signal " + std::to_string(r.signal)
                          : " exited with status " + std::to_string(r.exitStatus)) +
                ": " + tail(r.err.empty() ? r.out : r.err);
    return run;
  }
  try {
    run.report = parsePyrightJson(r.out, treeDir);
  } catch (const std::runtime_error& e) {
    run.error = command + ": " + e.what();
    return run;
  }
  if (run.report.filesAnalyzed == 0) {
    run.error =
        command + " checked no file" + (paths.empty() ? "" : " of " + support::joinWords(paths));
    return run;
  }
  run.ok = true;
  return run;
}

}  // namespace gridlock::rewrite::py::checks
