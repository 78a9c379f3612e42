// How a rerun names the tests it should run (docs/pair.md, "How results are collected").
#pragma once

#include "pair/results.h"

#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::pair {

using Environment = std::vector<std::pair<std::string, std::string>>;

// Linux refuses an exec ("Argument list too long") when one environment string, NAME=value and
// its NUL, exceeds MAX_ARG_STRLEN: 32 pages, 128 KiB with 4 KiB pages.
inline constexpr size_t kMaxEnvString = 128 * 1024;

// The filter file's text: one display id (Suite.Name) per line.
std::string filterFileText(const std::set<TestId>& tests);

// GRIDLOCK_TEST_FILTER and GTEST_FILTER (`Suite.A:Suite.B`) and GRIDLOCK_TEST_REGEX
// (`^(Suite\.A|Suite\.B)$`), or none of them when any would exceed `maxString` or all together
// would crowd the exec's total limit: the rerun then runs every test and pair reads only these
// from its results.
Environment filterVariables(const std::set<TestId>& tests, size_t maxString = kMaxEnvString);

}  // namespace gridlock::pair
