#include "frontend/guard.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace gridlock::frontend {
namespace {

using namespace clang;

enum class Test { None, Present, Missing };

Test invert(Test t) {
  return t == Test::Present ? Test::Missing : t == Test::Missing ? Test::Present : Test::None;
}

// A thing that can hold an explicit group: a variable, parameter, member or a getter on one.
bool isHolder(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* call = dyn_cast<CXXMemberCallExpr>(e))  // pg.get(), opts.group()
    return isHolder(call->getImplicitObjectArgument());
  return isa<DeclRefExpr, MemberExpr, CXXThisExpr, ArraySubscriptExpr>(e);
}

bool isNullValue(const Expr* e, ASTContext& ctx) {
  if (e->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull)) return true;
  e = e->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(e)) return true;
  // MPI_COMM_NULL, MPI_GROUP_NULL, ...: a macro whose name ends in _NULL.
  const SourceManager& sm = ctx.getSourceManager();
  if (e->getBeginLoc().isMacroID()) {
    CharSourceRange r = sm.getExpansionRange(e->getSourceRange());
    StringRef text = Lexer::getSourceText(r, sm, ctx.getLangOpts());
    if (text.ends_with("_NULL") && !text.contains('(')) return true;
  }
  return false;
}

Test classify(const Expr* c, ASTContext& ctx) {
  if (!c) return Test::None;
  c = c->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(c))
    return u->getOpcode() == UO_LNot ? invert(classify(u->getSubExpr(), ctx)) : Test::None;
  if (const auto* b = dyn_cast<BinaryOperator>(c)) {
    if (b->getOpcode() == BO_LOr) {
      Test l = classify(b->getLHS(), ctx), r = classify(b->getRHS(), ctx);
      return l == Test::Missing || r == Test::Missing ? Test::Missing : Test::None;
    }
    if (b->getOpcode() == BO_LAnd) {
      Test l = classify(b->getLHS(), ctx), r = classify(b->getRHS(), ctx);
      return l == Test::Present && r == Test::Present ? Test::Present : Test::None;
    }
    if (b->getOpcode() != BO_EQ && b->getOpcode() != BO_NE) return Test::None;
    bool nullSide = (isNullValue(b->getRHS(), ctx) && isHolder(b->getLHS())) ||
                    (isNullValue(b->getLHS(), ctx) && isHolder(b->getRHS()));
    if (!nullSide) return Test::None;
    return b->getOpcode() == BO_EQ ? Test::Missing : Test::Present;
  }
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(c)) {  // shared_ptr == nullptr
    auto k = op->getOperator();
    if (op->getNumArgs() == 1 && k == OO_Exclaim) return invert(classify(op->getArg(0), ctx));
    if (op->getNumArgs() != 2 || (k != OO_EqualEqual && k != OO_ExclaimEqual)) return Test::None;
    bool nullSide = (isNullValue(op->getArg(1), ctx) && isHolder(op->getArg(0))) ||
                    (isNullValue(op->getArg(0), ctx) && isHolder(op->getArg(1)));
    if (!nullSide) return Test::None;
    return k == OO_EqualEqual ? Test::Missing : Test::Present;
  }
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(c)) {
    const CXXMethodDecl* md = m->getMethodDecl();
    if (!md) return Test::None;
    // `if (pg)` on a smart pointer or optional is a call of its operator bool.
    if (isa<CXXConversionDecl>(md) && isHolder(m->getImplicitObjectArgument()))
      return Test::Present;
    if (md->getIdentifier() && md->getName() == "has_value" &&
        isHolder(m->getImplicitObjectArgument()))
      return Test::Present;
    return Test::None;
  }
  if (isHolder(c) && (c->getType()->isPointerType() ||
                      c->getType()->isRecordType()))
    return Test::Present;
  return Test::None;
}

}  // namespace

bool isFallback(const std::vector<const Stmt*>& path, ASTContext& ctx) {
  for (size_t i = path.size() - 1; i > 0; --i) {
    const Stmt* child = path[i];
    const Stmt* parent = path[i - 1];
    if (const auto* co = dyn_cast<ConditionalOperator>(parent)) {
      Test t = classify(co->getCond(), ctx);
      if (child == co->getFalseExpr() && t == Test::Present) return true;
      if (child == co->getTrueExpr() && t == Test::Missing) return true;
    } else if (const auto* bco = dyn_cast<BinaryConditionalOperator>(parent)) {
      // `pg ?: g()`: the right side runs when pg converts to false.
      if (child == bco->getFalseExpr() && isHolder(bco->getCommon())) return true;
    } else if (const auto* ifs = dyn_cast<IfStmt>(parent)) {
      Test t = classify(ifs->getCond(), ctx);
      if (child == ifs->getThen() && t == Test::Missing) return true;
      if (child == ifs->getElse() && t == Test::Present) return true;
    } else if (const auto* call = dyn_cast<CXXMemberCallExpr>(parent)) {
      const CXXMethodDecl* md = call->getMethodDecl();
      if (md && md->getIdentifier() && md->getName() == "value_or" &&
          child != call->getCallee() && isHolder(call->getImplicitObjectArgument()))
        return true;
    } else if (isa<LambdaExpr>(parent)) {
      return false;  // a lambda body runs when called, not under the enclosing condition
    }
  }
  return false;
}

}  // namespace gridlock::frontend
