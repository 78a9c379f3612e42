// Which of the three Megatron-LM commits of issue 29 the checkout GRIDLOCK_MEGATRON_LM holds:
// GRIDLOCK_MEGATRON_COMMIT names it (its first 8 hex digits; scripts/megatron-check.sh sets
// both). The tests whose exact counts differ by commit are skipped without it.
#pragma once

#include <cstdlib>
#include <string>

namespace gridlock::test {

// The checkout's root, or "" when GRIDLOCK_MEGATRON_LM names none.
inline std::string megatronRoot() {
  const char* root = std::getenv("GRIDLOCK_MEGATRON_LM");
  return root ? root : "";
}

// bf71c142, 3f4234de or d98e8a64; "" when GRIDLOCK_MEGATRON_COMMIT names none of them.
inline std::string megatronCommit() {
  const char* named = std::getenv("GRIDLOCK_MEGATRON_COMMIT");
  std::string c = named ? std::string(named).substr(0, 8) : "";
  return c == "bf71c142" || c == "3f4234de" || c == "d98e8a64" ? c : "";
}

}  // namespace gridlock::test
