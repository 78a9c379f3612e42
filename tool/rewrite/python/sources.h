// The Python files a plan reads, parsed once each: the overlay's contents (a re-parse of the
// rewritten tree) where it has them, else the file's under the root.
#pragma once

#include "rewrite/python/python_source.h"

#include <map>
#include <memory>
#include <string>

namespace gridlock::rewrite::py {

class Sources {
 public:
  // `overlay`: root-relative path -> contents.
  explicit Sources(std::string root, std::map<std::string, std::string> overlay = {})
      : root_(std::move(root)), overlay_(std::move(overlay)) {}
  // The file, root-relative; null when it cannot be read.
  const PySource* get(const std::string& file);
  const std::string& root() const { return root_; }
  // The root-relative file `src` was read from (by get), or null.
  const std::string* fileOf(const PySource* src) const;

 private:
  std::string root_;
  std::map<std::string, std::string> overlay_;
  std::map<std::string, std::unique_ptr<PySource>> parsed_;
  std::map<const PySource*, std::string> files_;
};

}  // namespace gridlock::rewrite::py
