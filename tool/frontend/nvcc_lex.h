// How nvcc splits text into arguments and values, as nvcc 13 does it (checked with --dryrun).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gridlock::frontend {

enum class NvccListStyle {
  // -I, -isystem, -include, -optf: "..." protects commas and is removed; '\' is a plain
  // character (`-I 'a\,b'` is `a\` and `b`).
  Path,
  // -D, -U, -Xcompiler and the rest: "..." protects commas and stays; '\' takes the next
  // character as it is (`-D 'A=1\,2'` is `A=1,2`).
  Text,
};

// The elements of a list value ("<file>,..."); empty elements are dropped, as nvcc does.
std::vector<std::string> splitNvccList(std::string_view value, NvccListStyle style);

struct Tokens {
  std::vector<std::string> words;
  std::string error;  // nvcc's complaint ("Stray '\"' character"); empty when none
};

// An --options-file: words split by white space, "..." groups and is removed, '\' takes the
// next character. Single quotes and '#' mean nothing to nvcc.
Tokens tokenizeNvccOptionsFile(std::string_view text);

// A POSIX shell's word splitting (no expansions): nvcc joins -Xcompiler's elements with spaces
// into a command that the shell runs, so `-Xcompiler '-DX="a,b"'` reaches the host as -DX=a,b.
Tokens splitShellWords(std::string_view text);

}  // namespace gridlock::frontend
