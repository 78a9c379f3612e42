#include "rewrite/python/local_aliases.h"

namespace gridlock::rewrite::py {

void LocalAliases::runOn(PyState& s) {
  for (const auto& [i, d] : s.aliases) {
    const facts::Verdict* source = s.decided(d);
    facts::Verdict v = source ? *source
                              : facts::Verdict{std::nullopt, facts::Left::NoSource,
                                               "its assignment is not decided"};
    v.detail = "a local assigned from the read at " + at(s.read(d)) + ": " + v.detail;
    s.decide(i, v);
    if (v.applied) ++s.tally(*v.applied).reads;
  }
}

}  // namespace gridlock::rewrite::py
