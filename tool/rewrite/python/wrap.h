// Lines a rewrite made longer than the project's formatter allows, split the way black splits
// them: the last bracket of the statement opened on its first line, its contents on one line
// indented by one level and the bracket closed on a line of its own; when that line is still
// too long, one element per line, each with a comma. A statement split over lines that the
// rewrite made short enough is joined onto one line, as black joins it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gridlock::rewrite::py {

// `text` with each statement that overlaps a `touched` byte range joined onto one line when black
// would join it (below), else, when it has a line longer than `limit` (not counting a trailing
// comment, which black does not move either), split as above; `unit` is the file's indentation
// unit. A statement whose bracket holds a comment other than one right after the opening
// bracket, or an element spanning lines, is left split as it is.
//
// Joined: a statement split over lines (a compound statement's header through its `:`) whose
// one-line form fits in `limit`, its trailing comment counted as black counts it, and holds no
// comment, backslash or string spanning lines, nor parentheses black would drop once it fits
// (`x = (\n    a + b\n)`, which black writes `x = a + b`: left as it is). A trailing comma
// before a closing bracket keeps the split when `magicTrailingComma` (black's default), else it
// is dropped as the line is joined (black's skip-magic-trailing-comma); a one-element tuple's
// stays, either way.
std::string wrapLongStatements(const std::string& text,
                               const std::vector<std::pair<unsigned, unsigned>>& touched,
                               unsigned limit, const std::string& unit,
                               bool magicTrailingComma = true);

}  // namespace gridlock::rewrite::py
