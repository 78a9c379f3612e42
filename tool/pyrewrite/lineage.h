// The classes an object's attributes come from (docs/rewrite.md, "Python": substitute): a
// method's class, then the class whose `__init__` its `super().__init__(...)` runs, as the
// scan resolved the bases (index::Program's classes). Internal to tool/pyrewrite.
#pragma once

#include "index/program.h"
#include "pyrewrite/sources.h"

#include <map>
#include <optional>
#include <string>

namespace gridlock::pyrewrite {

// A class definition in its file.
struct PyClass {
  const PySource* src = nullptr;
  TSNode node{};
};

class Lineage {
 public:
  Lineage(const index::Program& program, Sources& sources);

  // The class `c` names first among its bases, when the scan resolved that name to a class
  // defined in a file it read; nothing for a base it could not resolve (`torch.nn.Module`).
  std::optional<PyClass> base(const PyClass& c) const;

 private:
  const index::Program& program_;
  Sources& sources_;
  std::map<std::pair<std::string, unsigned>, std::string> byPlace_;  // (file, line) -> usr
};

}  // namespace gridlock::pyrewrite
