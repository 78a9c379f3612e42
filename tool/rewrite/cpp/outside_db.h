// Code the scan never saw: a unit test, an example or a benchmark that no compile database
// lists calls a function whose parameter list the rewrite changes, and would stop compiling.
// The re-parse cannot prove those files, so the rewriter lists them before writing anything.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::cpp {

struct OutsideUse {
  std::string file;  // root-relative
  unsigned line = 0, column = 0;
  std::string function;  // the qualified name whose signature changes
};

struct OutsideSearch {
  std::vector<OutsideUse> uses;
  // Source files that could not be searched, and directories (ending in '/') that could not
  // be read: what is in them was not searched either.
  std::vector<std::string> unreadable;
};

// Every C, C++ or CUDA source file under `root` that no scanned unit saw (`seen`,
// root-relative) and that names one of `signatures` (USR -> qualified name) by its
// unqualified name (a constructor by its class's), as an identifier token: comments and
// string literals do not count. A function in an anonymous namespace is named only by the unit
// that defines it, which was seen: not searched for. Hidden directories and build directories
// (holding CMakeCache.txt or compile_commands.json) are not searched, nor links to directories.
// Sorted by file, line, column.
OutsideSearch findOutsideUses(const std::string& root, const std::set<std::string>& seen,
                              const std::map<std::string, std::string>& signatures);

}  // namespace gridlock::rewrite::cpp
