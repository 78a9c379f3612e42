// The AST walk of one translation unit: every reference to a rule's accessor, shim, macro or
// global variable in an in-scope file, with its enclosing symbol, guard and fix hint.
// Declarations in files no pack cares about are skipped whole, which keeps the walk cheap
// next to the parse.
#pragma once

#include "facts/facts.h"
#include "frontend/file_places.h"
#include "frontend/scope_sources.h"
#include "frontend/suppressions.h"
#include "rules/rule_set.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringSet.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace gridlock::frontend {

// One expansion of a rule macro, as the preprocessor saw it.
struct MacroExpansion {
  clang::SourceLocation nameLoc;  // the macro name token
  const rules::AccessorRule* rule = nullptr;
};

class ReadCollector : public clang::RecursiveASTVisitor<ReadCollector> {
  using Base = clang::RecursiveASTVisitor<ReadCollector>;

 public:
  // `inferred`: the unit's inferred type rules (declaredRules), used beside the packs'.
  ReadCollector(clang::ASTContext& ctx, const rules::RuleSet& rules, FilePlaces& places,
                const std::vector<MacroExpansion>& macroExpansions, facts::TuFacts& out,
                const InferredTypes* inferred = nullptr);

  // Templates: the pattern and each instantiation are walked; a read keeps one position.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }

  bool TraverseDecl(clang::Decl* d);
  bool TraverseStmt(clang::Stmt* s, DataRecursionQueue* queue = nullptr);
  bool TraverseParmVarDecl(clang::ParmVarDecl* p);

  bool VisitDeclRefExpr(clang::DeclRefExpr* e);
  bool VisitMemberExpr(clang::MemberExpr* e);
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr* e);
  bool VisitUnresolvedMemberExpr(clang::UnresolvedMemberExpr* e);
  bool VisitDeclStmt(clang::DeclStmt* s);
  bool VisitExpr(clang::Expr* e);

  // Records the rule-macro expansions that no expression claimed (e.g. at file scope), then the
  // allows of the unit's files and whether its reads fell under them (recordAllows).
  void finish();

 private:
  struct Frame {
    const clang::Decl* decl = nullptr;  // function, variable or field being walked
    std::vector<const clang::Stmt*> path;
    std::vector<std::pair<const clang::VarDecl*, const clang::Stmt*>> locals;
  };
  struct Target {
    std::string name;
    facts::ReadKind kind = facts::ReadKind::Accessor;
    std::string group;
    facts::Yields yields = facts::Yields::Group;
    size_t pack = 0;
    const rules::GlobalRule* global = nullptr;  // for global state: its per-model field
  };
  // Where a read is reported and spelled (see record()).
  struct Place {
    clang::SourceLocation report, spelled;
    std::optional<std::string> macro;
  };

  const rules::AccessorRule* functionRule(const clang::NamedDecl* d);
  const rules::GlobalRule* globalRule(const clang::VarDecl* d);
  void onOverloadSet(const clang::OverloadExpr* e, clang::SourceLocation loc);
  void onFunctionRef(const clang::NamedDecl* d, clang::SourceLocation loc);
  void onVariableRef(const clang::VarDecl* d, clang::SourceLocation loc);
  std::vector<unsigned> invocations(clang::SourceLocation loc) const;
  void record(const Target& t, clang::SourceLocation loc);
  Place placeOf(clang::SourceLocation loc) const;
  void setEnclosing(facts::Read& r) const;
  void setGuard(facts::Read& r, const Target& t);
  void setHint(facts::Read& r, const Target& t);
  // How the reference on top of the path uses what it names: its value read, only written
  // (assigned, incremented), or read where it may also be changed (a non-const method called
  // on it, its address handed on as non-const).
  enum class Access { Read, Write, Change };
  Access accessOf(bool throughCall = false) const;
  void setRange(facts::Read& r, clang::SourceLocation loc);
  void setArguments(facts::Read& r, const clang::CallExpr* call);
  facts::FixHint hintFor(const Target& t);
  void rewriteFacts(facts::Read& r);
  std::optional<std::string> suppression(clang::SourceLocation fileLoc, const facts::Read& r);
  unsigned statementLine(clang::SourceLocation fileLoc) const;
  bool knownAllowName(const std::string& name) const;
  const FileSuppressions& suppressionsOf(clang::FileID fid);
  void recordAllows();

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  const rules::RuleSet& rules_;
  FilePlaces& places_;
  ScopeSources sources_;
  facts::TuFacts& out_;
  std::vector<Frame> frames_;
  const clang::ParmVarDecl* defaultOf_ = nullptr;  // inside this parameter's default argument
  llvm::StringSet<> simpleNames_;  // last components of rule names: a cheap first filter
  llvm::DenseMap<const clang::Decl*, const void*> ruleCache_;
  // Rule-macro expansions not yet claimed, by the raw location of their name token.
  std::multimap<unsigned, MacroExpansion> pendingMacros_;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string, std::string>> seen_;
  std::set<std::pair<std::string, unsigned>> badSuppressionSeen_;
  std::map<clang::FileID, FileSuppressions> suppressions_;
  std::map<clang::FileID, std::vector<bool>> allowUsed_;  // by index into suppressions_'s allows
};

}  // namespace gridlock::frontend
