// Failure messages reduced to what they mean, so the same failure groups across tests and ranks.
#pragma once

#include <string>
#include <string_view>

namespace gridlock::pair {

// Drops GoogleTest's location line ("file.cpp:42" / "unknown file" / "file.cpp:42: Failure")
// and the "Failed" line of FAIL() after it,
// unwraps "C++ exception with description "X" thrown in the test body." to X, shortens paths
// to their file name, and replaces hex addresses with <addr> and numbers with <n>; whitespace
// (newlines included) collapses to single spaces. Digits inside identifiers (tp2, fp16) stay.
std::string normaliseMessage(std::string_view message);

// For tables: the location line dropped and an exception unwrapped, numbers and paths kept,
// on one line cut to `max` characters.
std::string readableMessage(std::string_view message, size_t max = 0);

// The message on one line, whitespace collapsed, cut to `max` characters (for tables).
std::string oneLine(std::string_view message, size_t max = 0);

}  // namespace gridlock::pair
