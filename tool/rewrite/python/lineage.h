// The classes an object's attributes come from (docs/rewrite.md, "Python": substitute): a
// method's class, then the classes of its method resolution order, whose `__init__`s
// `super().__init__(...)` runs in turn, as the scan resolved the bases (index::Program's
// classes). Internal to tool/rewrite/python.
#pragma once

#include "index/program.h"
#include "rewrite/python/sources.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

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

  // Python's method resolution order of `c` (C3 linearisation, `c` first), over the bases the
  // scan resolved: an entry without a value is a base it could not resolve (`torch.nn.Module`),
  // whose own bases are not known, so nothing after it is sure. Empty when `c` is not among the
  // scan's classes, a resolved base does not match the name written, or the bases admit no
  // order (Python raises TypeError).
  std::vector<std::optional<PyClass>> mro(const PyClass& c) const;

 private:
  // The linearisation of the class `usr` names: usrs, and "?<usr>#<k>" for its k-th written
  // base that the scan did not resolve.
  std::optional<std::vector<std::string>> linearise(const std::string& usr, int depth) const;

  const index::Program& program_;
  Sources& sources_;
  std::map<std::pair<std::string, unsigned>, std::string> byPlace_;  // (file, line) -> usr
};

}  // namespace gridlock::rewrite::py
