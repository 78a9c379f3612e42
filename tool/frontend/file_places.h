// Where each file of a translation unit stands: its root-relative path and its placement
// (in scope, edge, out) for every rule pack. Cached per FileID: the checks run per reference.
#pragma once

#include "rules/rule_set.h"

#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseMap.h>

#include <string>
#include <vector>

namespace gridlock::frontend {

class FilePlaces {
 public:
  struct Info {
    std::string path;  // root-relative when under the root, else absolute
    bool underRoot = false;
    bool interest = false;  // In or Edge for some pack
    std::vector<rules::Placement> perPack;
  };

  FilePlaces(const clang::SourceManager& sm, const rules::RuleSet& rules, std::string root)
      : sm_(sm), rules_(rules), root_(std::move(root)) {}

  // The file a location is expanded into (for a macro: where it is used).
  const Info& at(clang::SourceLocation loc);
  const Info& of(clang::FileID fid);

 private:
  const clang::SourceManager& sm_;
  const rules::RuleSet& rules_;
  std::string root_;  // real path, no trailing '/'
  llvm::DenseMap<clang::FileID, Info> cache_;
  Info none_;
};

// Real path of `path` (resolving symlinks and dots), or the path made absolute when it does
// not exist.
std::string realPath(const std::string& path);
// `path` relative to `root` when it lies under it.
bool relativeTo(const std::string& root, const std::string& path, std::string& out);

}  // namespace gridlock::frontend
