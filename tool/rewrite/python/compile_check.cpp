#include "rewrite/python/compile_check.h"

#include "rewrite/python/checks/compile_check.h"
#include "rewrite/python/checks/tools.h"

namespace gridlock::rewrite::py {

Check::Outcome CompileCheck::run(Round& round) {
  const apply::Prepared& p = round.prepared;
  std::vector<std::string> sources;
  for (const auto& c : p.changes) sources.push_back(c.after);
  checks::CompileOutcome o = checks::compileSources(checks::findTools().python, sources);
  if (!o.ran) {
    round.error = "no python3 runs to compile the rewritten files (py_compile); nothing written";
    return Outcome::Refuse;
  }
  const size_t held = round.held.size();
  for (size_t i = 0; i < p.changes.size() && i < o.failures.size(); ++i)
    if (o.failures[i]) {
      const std::string& file = p.changes[i].file;
      round.held[file] = file + ":" + *o.failures[i];
      round.log.push_back("the rewritten " + file + " does not compile: " + round.held[file]);
    }
  return round.held.size() > held ? Outcome::NextRound : Outcome::Pass;
}

}  // namespace gridlock::rewrite::py
