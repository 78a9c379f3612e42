// The C++ rewrite's proof that its result compiles (the check of rewrite/core/verify.h's
// rounds): the edited files laid over the originals in memory, every translation unit parsed
// again. A TU that did not fail before and fails now holds its changed files back (no edit may
// land there, and the Thread closures and checks that need them are dropped), and the rewrite
// is planned again; when the failure cannot be pinned on a file that changed, or when it still
// breaks after kMaxVerifyRounds rounds of holding back, everything is rolled back.
#pragma once

#include "rewrite/core/check.h"

namespace gridlock::rewrite::cpp {

class ReparseCheck : public Check {
 public:
  std::string_view id() const override { return "reparse"; }
  Outcome run(Round& round) override;
};

// What ReparseCheck refuses with: a failure no changed file explains, or too many rounds.
extern const char* const kNotPinned;

}  // namespace gridlock::rewrite::cpp
