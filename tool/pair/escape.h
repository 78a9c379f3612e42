// Names and messages come from result files and may hold anything: these keep each on its report
// line and each Markdown table cell in its column.
#pragma once

#include <string>
#include <string_view>

namespace gridlock::pair {

// Control characters as C escapes (\n, \r, \t, \x1b): a test name with a newline stays on its
// line and shows what it holds.
std::string printable(std::string_view text);

// Text for a Markdown table cell: printable, and `\`, `|`, backticks escaped and `<`, `>` made
// entities, so GitHub neither splits the cell, opens a code span nor reads a tag (<n> vanished).
std::string markdownText(std::string_view text);

// A printable name as an inline code span fenced with more backticks than it holds (a backtick
// in it cannot close the span); `|` escaped, which GitHub honours in table cells even there.
std::string markdownCode(std::string_view text);

}  // namespace gridlock::pair
