// A five-read project for the configuration and gate tests: a `.gridlock.json` at the project
// directory (the root) names the build directory, a pack beside it by name, and the baseline.
//
//   src/ps.h            ps::get_tp(), ps::get_dp(): the accessors of pack "ours"
//   src/core/a.cpp      a_one: get_tp (3:20); a_two: get_tp (5:7), get_dp (6:7)
//   src/core/shared.h   shared: get_dp (3:28), included by a.cpp only
//   src/core/b.cpp      b_one: get_dp (2:20)
//   src/train/main.cpp  main: get_tp (2:18), an edge file: listed, not counted
//
// Five counted reads in five keys; one edge read.
#pragma once

#include "scan/temp_project.h"

#include <string>

namespace gridlock::test {

class SmallProject : public TempProject {
 public:
  explicit SmallProject(const std::string& tag);

  // The project directory as a real path (what gridlock prints for it).
  std::string real() const;
  // `gridlock ARGS` run from `cwd` (relative to the project directory), with `env` ("A=1")
  // added to the environment.
  CommandResult runIn(const std::string& cwd, const std::string& args,
                      const std::string& env = "") const;
  std::string baseline() const { return dir() + "/gridlock-baseline.json"; }
  // Writes the compile database of a.cpp, b.cpp and main.cpp (less those named in `without`).
  void writeDatabase(const std::string& without = "") const;
};

}  // namespace gridlock::test
