// Imports a rewrite adds (docs/rewrite.md, "Python"): once, in the file's import block, in its
// style. A name from a module the file already imports from joins that statement's list (in
// order where the list is sorted, one per line where it has one per line); a new statement goes
// where isort (black's profile) keeps it: with the module-level imports of its section (standard
// library, third party, the file's own top package), straight imports before `from` ones, sorted
// by module, or as a section of its own before the next section.
#pragma once

#include "rewrite/python/python_source.h"

#include <optional>
#include <string>

namespace gridlock::rewrite::py {

// An insertion into a file.
struct ImportEdit {
  unsigned offset = 0;
  std::string text;
};

// How `file` spells `name` of `module` at module level without a new import: `Optional` after
// `from typing import Optional`, and unless `fromOnly`, `typing.Optional` after `import typing`,
// `t.Optional` after `import typing as t`; nothing when no module-level import binds it.
std::optional<std::string> importedAs(const PySource& src, const std::string& module,
                                      const std::string& name, bool fromOnly = false);

// The edit that makes `from module import name` true of `file`.
ImportEdit addFromImport(const std::string& file, const PySource& src, const std::string& module,
                         const std::string& name);

// The edit that adds `import module` to `file`.
ImportEdit addImport(const std::string& file, const PySource& src, const std::string& module);

}  // namespace gridlock::rewrite::py
