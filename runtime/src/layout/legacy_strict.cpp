#include "legacy_strict.h"

#include "gridlock/parallel_state.h"

#include <atomic>
#include <stdexcept>
#include <string>

namespace gridlock::legacy {
namespace {
std::atomic<bool> strict_flag{false};
}

void set_strict(bool strict) { strict_flag = strict; }
bool strict() { return strict_flag; }

void check_not_strict(const char* accessor) {
  if (strict_flag)
    throw std::logic_error(std::string("strict mode: legacy global read ") + accessor +
                           "(); pass the group or metadata explicitly");
}

}  // namespace gridlock::legacy

// parallel_state's switch lives here, beside the flag, so code without MPI can flip it.
namespace gridlock::parallel_state {

void set_strict_mode(bool strict) { legacy::set_strict(strict); }
bool strict_mode() { return legacy::strict(); }

}  // namespace gridlock::parallel_state
