// The whole-program facts of one translation unit: functions and constructors with their
// parameters and defaults, classes with their bases, and every call and construction site with
// the argument bound to each parameter (explicit, default, null, forwarded). Files outside
// --root are skipped; everything under it is seen, scoped or not, since a site anywhere
// reaches the target. When the scan asks for the rewriter's facts, the walk hands the places
// they are about to a RewriteCollector (frontend/rewrite_collector.h).
#pragma once

#include "facts/facts.h"
#include "frontend/file_places.h"
#include "frontend/reaching_calls.h"
#include "frontend/rewrite_collector.h"
#include "frontend/scope_sources.h"
#include "frontend/usr.h"
#include "rules/rule_set.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace gridlock::frontend {

class ProgramCollector : public clang::RecursiveASTVisitor<ProgramCollector> {
  using Base = clang::RecursiveASTVisitor<ProgramCollector>;

 public:
  // `rewriteFacts`: also what only the rewriter reads (FrontendOptions::rewriteFacts).
  // `inferred`: the unit's inferred type rules (declaredRules), used beside the packs'.
  ProgramCollector(clang::ASTContext& ctx, FilePlaces& places, const rules::RuleSet& rules,
                   facts::TuFacts& out, bool rewriteFacts = true,
                   const InferredTypes* inferred = nullptr);

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }  // implicit base initializers
  bool shouldWalkTypesOfTypeLocs() const { return false; }

  bool TraverseDecl(clang::Decl* d);
  bool TraverseConstructorInitializer(clang::CXXCtorInitializer* init);
  // Locals of a type the packs list, visible from where the walk is (blocks push and pop).
  bool TraverseCompoundStmt(clang::CompoundStmt* s, DataRecursionQueue* queue = nullptr);
  bool TraverseDeclStmt(clang::DeclStmt* s, DataRecursionQueue* queue = nullptr);
  bool TraverseLambdaExpr(clang::LambdaExpr* e, DataRecursionQueue* queue = nullptr);
  bool VisitFunctionDecl(clang::FunctionDecl* fd);
  bool VisitCXXRecordDecl(clang::CXXRecordDecl* rd);
  bool VisitCallExpr(clang::CallExpr* e);
  bool VisitCXXNewExpr(clang::CXXNewExpr* e);
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* e);
  bool VisitDeclRefExpr(clang::DeclRefExpr* e);
  // After the walk: drops the calls and sites whose callee cannot reach what the packs scan,
  // and the functions and classes nothing kept names (frontend/reaching_calls.h).
  void finish();

 private:
  // The walk's innermost function calls, constructs or encloses `callee`.
  void edge(const clang::FunctionDecl* callee);
  // Whether `fd` may lead to what the packs scan by itself, whatever the unit shows it calls:
  // declared in a scanned file, its body not in this unit, virtual, taking a group, or a
  // constructor that runs member initializers (which the walk sees outside any function).
  bool mayReachScope(const clang::FunctionDecl* fd);
  // Some declaration of `fd` is in a file a pack places.
  bool declaredWherePacksScan(const clang::FunctionDecl* fd);
  // Declared where a pack scans, or overrides (at any depth) a method that is.
  bool targetOrOverride(const clang::FunctionDecl* fd);

  bool underRoot(clang::SourceLocation loc);
  // Where the walk is, for the rewriter's facts.
  WalkPlace here() const {
    return {functions_.empty() ? nullptr : functions_.back(), &locals_, inInitializer_,
            lambdaDepth_ > 0};
  }
  facts::ArgFact bind(const clang::Expr* arg) const;
  void site(const clang::FunctionDecl* callee, clang::SourceLocation loc, facts::Via via,
            const clang::CXXRecordDecl* constructed, const clang::Expr* const* args,
            unsigned numArgs, clang::SourceLocation rparen);
  // Where the site's arguments are written, and with the rewriter's facts what is in scope
  // there (for the group parameters it leaves out or passes null for).
  void argumentPlaces(facts::SiteFact& s, const clang::FunctionDecl* callee,
                      const clang::Expr* const* args, unsigned numArgs,
                      clang::SourceLocation rparen);
  const clang::CXXConstructorDecl* constructionIn(const clang::FunctionDecl* fd,
                                                  clang::QualType type, int depth);

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  FilePlaces& places_;
  const rules::RuleSet& rules_;
  ScopeSources sources_;
  facts::TuFacts& out_;
  std::vector<const clang::FunctionDecl*> functions_;  // enclosing functions
  std::vector<const clang::VarDecl*> locals_;  // of a pack's types, in the blocks walked into
  bool inInitializer_ = false;                 // in a constructor's initializer list
  int lambdaDepth_ = 0;
  llvm::DenseMap<const clang::Expr*, facts::Via> via_;  // constructions named by a parent
  Usrs usrs_;
  std::set<const clang::Decl*> seenDecls_;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seenSites_;
  llvm::DenseSet<const clang::FunctionDecl*> callees_;  // every function called or constructed
  llvm::DenseSet<std::pair<const clang::FunctionDecl*, const clang::FunctionDecl*>> edges_;
  std::set<std::string> named_;              // functions kept uncalled (targetOrOverride)
  std::set<std::string> scannedClasses_;     // classes declared in a file a pack places
  FactsMark from_;                           // where this walk's facts start in out_
  std::optional<RewriteCollector> rewrite_;  // none: the scan records no rewrite facts
};

}  // namespace gridlock::frontend
