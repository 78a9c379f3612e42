#include "rewrite/python/pyright_check.h"

#include "rewrite/python/checker.h"
#include "rewrite/python/py_state.h"

#include <algorithm>

namespace gridlock::rewrite::py {

Check::Outcome PyrightCheck::run(Round& round) {
  const auto& planned = static_cast<const PyState&>(round.planned);
  CheckerOutcome c = checkWithPyright(round.before, round.prepared, planned.sources.root(),
                                      options_, planned.extras.groupHints);
  if (!c.error.empty()) {
    round.error = c.error;
    return Outcome::Refuse;
  }
  round.log.insert(round.log.end(), c.log.begin(), c.log.end());
  for (const auto& w : c.warnings)
    if (std::find(round.warnings.begin(), round.warnings.end(), w) == round.warnings.end())
      round.warnings.push_back(w);
  for (const auto& [file, why] : c.held) {
    if (planned.extras.hinted.count(file) && unhinted_.insert(file).second) {
      round.log.push_back("pyright finds something new in the rewritten " + file + " (" + why +
                          "): planned again without type hints");
      round.replan = true;
      continue;
    }
    round.held[file] = why;
    round.log.push_back("pyright finds something new in the rewritten " + file + ": " + why);
  }
  return Outcome::Pass;
}

}  // namespace gridlock::rewrite::py
