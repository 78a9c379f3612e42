// The facts only the rewriter reads (FrontendOptions::rewriteFacts), recorded as the program
// walk (frontend/program_collector.h) passes the places they are about: each declaration's
// parameter list with its defaults, body and initializers (Thread, Collapse, Store), every
// direct call with what is in scope there (Thread), calls a template leaves dependent, functions
// whose address is taken, class bodies (Store), what is in scope at a construction or call site
// (Supply, Thread), and the digests of the files these facts would edit. A plain scan has no
// RewriteCollector and records none of them.
#pragma once

#include "facts/facts.h"
#include "frontend/file_places.h"
#include "frontend/scope_sources.h"
#include "frontend/usr.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gridlock::frontend {

// Where the program walk is: what a call or a site there has in scope.
struct WalkPlace {
  const clang::FunctionDecl* function = nullptr;  // the innermost function; null at file scope
  const std::vector<const clang::VarDecl*>* locals = nullptr;  // of a pack's types, in scope
  bool inInitializer = false;  // in a constructor's initializer list
  bool inLambda = false;
};

class RewriteCollector {
 public:
  RewriteCollector(clang::ASTContext& ctx, FilePlaces& places, const ScopeSources& sources,
                   Usrs& usrs, facts::TuFacts& out);

  // Whether a local the walk enters is a source later calls and sites hold: its type is one a
  // pack lists.
  bool keepsLocal(const clang::VarDecl* vd) const;
  // Where `fd` (USR `usr`) can take another parameter, with its defaults, its body's first
  // statement and locals, a constructor's initializers, and the aliases in scope there.
  void paramList(const clang::FunctionDecl* fd, const std::string& usr);
  // Store's facts of a class defined under the root (`usr`, in `file`).
  void classBody(const clang::CXXRecordDecl* rd, const std::string& usr, const std::string& file);
  // The expression a call names its callee with: a reference there is no address taken.
  void calleeOf(const clang::CallExpr* e);
  // A function named other than to call it.
  void reference(const clang::DeclRefExpr* e);
  // A direct call of `callee` at `at`.
  void call(const clang::CallExpr* e, const clang::FunctionDecl* callee, const WalkPlace& at);
  // A call whose callee depends on a template parameter.
  void dependentCall(const clang::CallExpr* e);
  // The groups and collections in scope at `at`.
  std::vector<facts::SourceFact> sourcesAt(const WalkPlace& at);
  // The MD5 of the file at `fileLoc` (`path`), which a rewrite may edit: an edit refuses a
  // file changed since the scan.
  void digest(clang::SourceLocation fileLoc, const std::string& path);

 private:
  bool underRoot(clang::SourceLocation loc);
  void initializers(const clang::CXXConstructorDecl* ctor, facts::ParamListFact& p);
  void body(const clang::FunctionDecl* fd, facts::ParamListFact& p);
  // ParamListFact::aliases of a declaration of `fd` at `at` (an expansion location).
  std::vector<std::pair<std::string, std::string>> aliasesAt(const clang::FunctionDecl* fd,
                                                             clang::SourceLocation at);

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  FilePlaces& places_;
  const ScopeSources& sources_;
  Usrs& usrs_;
  facts::TuFacts& out_;
  // A function's parameters and fields are the same at every call it makes: computed once.
  struct ScopeCache {
    std::vector<facts::SourceFact> params, fields;
  };
  std::map<const clang::FunctionDecl*, ScopeCache> scopeCache_;
  struct Alias {
    clang::SourceLocation at;
    std::string name, target;
  };
  // The aliases declared directly in one namespace block or the translation unit.
  std::map<const clang::DeclContext*, std::vector<Alias>> aliasCache_;
  std::set<const clang::Expr*> calleeRefs_;  // callees of calls: not an address taken
  std::set<std::string> addressTaken_;
};

// A location written in a macro argument (EXPECT_EQ(f(x), 1)) is written in the file: edit it
// there. One spelled in a macro body is not.
clang::SourceLocation writtenAt(const clang::SourceManager& sm, clang::SourceLocation l);
// Where an argument inserted before the one starting at `argBegin` goes: before the comments
// that lead it (`f(4, /*seq=*/seq)`: a comment names the argument it precedes).
unsigned insertionPoint(const clang::SourceManager& sm, clang::SourceLocation argBegin);

}  // namespace gridlock::frontend
