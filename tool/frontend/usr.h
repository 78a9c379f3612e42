// Unified Symbol Resolution names: how facts from different translation units meet.
#pragma once

#include <clang/AST/Decl.h>
#include <llvm/ADT/DenseMap.h>

#include <string>

namespace gridlock::frontend {

// The USR of `d`; a template instantiation is named by the template it was made from, so
// every TU agrees on one name.
std::string usrOf(const clang::Decl* d);
// usrOf each declaration, computed once (the program walk and the rewrite facts share them).
class Usrs {
 public:
  const std::string& of(const clang::Decl* d) {
    auto it = cache_.find(d);
    if (it != cache_.end()) return it->second;
    return cache_[d] = usrOf(d);
  }

 private:
  llvm::DenseMap<const clang::Decl*, std::string> cache_;
};

// A constructor inherited with `using Base::Base` is the base constructor it stands for.
const clang::FunctionDecl* throughInheritance(const clang::FunctionDecl* fd);

}  // namespace gridlock::frontend
