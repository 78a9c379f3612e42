// Unified Symbol Resolution names: how facts from different translation units meet.
#pragma once

#include <clang/AST/Decl.h>

#include <string>

namespace gridlock::frontend {

// The USR of `d`; a template instantiation is named by the template it was made from, so
// every TU agrees on one name.
std::string usrOf(const clang::Decl* d);
// A constructor inherited with `using Base::Base` is the base constructor it stands for.
const clang::FunctionDecl* throughInheritance(const clang::FunctionDecl* fd);

}  // namespace gridlock::frontend
