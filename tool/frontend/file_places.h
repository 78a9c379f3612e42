// Where each file of a translation unit stands: its root-relative path and its placement
// (in scope, edge, out) for every rule pack. Cached per FileID: the checks run per reference.
#pragma once

#include "rules/rule_set.h"

#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseMap.h>

#include <map>
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

  // `aliases`: see RootAliases.
  FilePlaces(const clang::SourceManager& sm, const rules::RuleSet& rules, std::string root,
             const std::map<std::string, std::string>* aliases = nullptr)
      : sm_(sm), rules_(rules), root_(std::move(root)), aliases_(aliases) {}

  // The file a location is expanded into (for a macro: where it is used).
  const Info& at(clang::SourceLocation loc);
  const Info& of(clang::FileID fid);

 private:
  const clang::SourceManager& sm_;
  const rules::RuleSet& rules_;
  std::string root_;  // real path, no trailing '/'
  const std::map<std::string, std::string>* aliases_;
  llvm::DenseMap<clang::FileID, Info> cache_;
  Info none_;
};

// Real path of `path` (resolving symlinks and dots), or the path made absolute when it does
// not exist.
std::string realPath(const std::string& path);
// `path` relative to `root` when it lies under it.
bool relativeTo(const std::string& root, const std::string& path, std::string& out);

// Real path -> root-relative name, for files the compile database names under the root whose
// real path lies outside it (a source symlinked into the tree): they are scanned, and
// reported, under the database's name.
using RootAliases = std::map<std::string, std::string>;
// `real` (a real path) relative to `root`: under it, or by its alias. Else `out` is `real`.
bool rootRelative(const std::string& root, const RootAliases* aliases, const std::string& real,
                  std::string& out);

}  // namespace gridlock::frontend
