// Lines a rewrite made longer than the project's formatter allows, split the way black splits
// them: the last bracket of the statement opened on its first line, its contents on one line
// indented by one level and the bracket closed on a line of its own; when that line is still
// too long, one element per line, each with a comma.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gridlock::pyrewrite {

// `text` with each statement that overlaps a `touched` byte range and has a line longer than
// `limit` (not counting a trailing comment, which black does not move either) split as above;
// `unit` is the file's indentation unit. A statement whose bracket holds a comment other than
// one right after the opening bracket, or an element spanning lines, is left as it is.
std::string wrapLongStatements(const std::string& text,
                               const std::vector<std::pair<unsigned, unsigned>>& touched,
                               unsigned limit, const std::string& unit);

}  // namespace gridlock::pyrewrite
