// Where the rewriter's new #includes and forward declarations go, the way a maintainer places
// them: a header of a directory the file already includes from joins that block, in order;
// a type a header only takes by reference or pointer is declared there, not included.
#pragma once

#include <optional>
#include <string>

namespace gridlock::rewrite::cpp {

// Whether `text` has a line `#include "header"` or `#include <header>`.
bool includesHeader(const std::string& text, const std::string& header);

// For a quoted `header` under a directory (`gridlock/require.h`): the start of the line where
// it goes in the first block of #includes that holds others of that directory, before the
// first of them that sorts after it, else after the last of them. None when no include of the
// file shares its first directory (clang-format's category rules decide then).
std::optional<size_t> blockOffset(const std::string& text, const std::string& header);

// Whether a line of `text` is (after indentation) the declaration `class T;` that
// `declaration` (`class ns::T`) would add; a comment mentioning it is not.
bool declaresForward(const std::string& text, const std::string& declaration);

// Where forward declarations go: the start of the line after the file's last #include, else
// after `#pragma once`; none when the file has neither.
std::optional<size_t> forwardDeclarationOffset(const std::string& text);

// Whether `file` is a header by its extension (.h, .hh, .hpp, .hxx, .cuh, .inc).
bool isHeaderFile(const std::string& file);

}  // namespace gridlock::rewrite::cpp
