#include "frontend/usr.h"

#include <clang/AST/DeclCXX.h>
#include <clang/Index/USRGeneration.h>
#include <llvm/ADT/SmallString.h>

namespace gridlock::frontend {

const clang::FunctionDecl* throughInheritance(const clang::FunctionDecl* fd) {
  while (const auto* ctor = llvm::dyn_cast_or_null<clang::CXXConstructorDecl>(fd)) {
    if (!ctor->isInheritingConstructor()) break;
    fd = ctor->getInheritedConstructor().getConstructor();
  }
  return fd;
}

std::string usrOf(const clang::Decl* d) {
  if (const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d))
    if (const clang::FunctionDecl* p = fd->getTemplateInstantiationPattern()) d = p;
  llvm::SmallString<128> buf;
  if (clang::index::generateUSRForDecl(d, buf)) return {};
  return std::string(buf);
}

}  // namespace gridlock::frontend
