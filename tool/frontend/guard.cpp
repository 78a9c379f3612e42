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

// What a condition says about an explicit group, and which declaration holds it.
struct Verdict {
  Test test = Test::None;
  const ValueDecl* holder = nullptr;
};

Verdict invert(Verdict v) {
  v.test = v.test == Test::Present   ? Test::Missing
           : v.test == Test::Missing ? Test::Present
                                     : Test::None;
  return v;
}

// Set for the duration of one isFallback call.
thread_local const HoldsGroup* holdsGroup = nullptr;

// A thing that can hold an explicit group: a variable, parameter or member of a type the rule
// pack lists as a group or collection (or a getter on one, such as pg.get()).
// Returns whether it is one; `decl` receives the variable, parameter or field.
bool isHolder(const Expr* e, const ValueDecl** decl = nullptr) {
  e = e->IgnoreParenImpCasts();
  if (const auto* call = dyn_cast<CXXMemberCallExpr>(e))  // pg.get(), opts.group()
    return isHolder(call->getImplicitObjectArgument(), decl);
  if (!isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(e)) return false;
  if (holdsGroup && !(*holdsGroup)(e->getType())) return false;
  if (decl) {
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) *decl = ref->getDecl();
    if (const auto* mem = dyn_cast<MemberExpr>(e)) *decl = mem->getMemberDecl();
  }
  return true;
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

// `a == null` / `a != null` in either order.
Verdict comparison(const Expr* l, const Expr* r, bool equal, ASTContext& ctx) {
  Verdict v;
  if (isNullValue(r, ctx) && isHolder(l, &v.holder)) {
  } else if (isNullValue(l, ctx) && isHolder(r, &v.holder)) {
  } else {
    return {};
  }
  v.test = equal ? Test::Missing : Test::Present;
  return v;
}

Verdict classify(const Expr* c, ASTContext& ctx) {
  if (!c) return {};
  c = c->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(c))
    return u->getOpcode() == UO_LNot ? invert(classify(u->getSubExpr(), ctx)) : Verdict{};
  if (const auto* b = dyn_cast<BinaryOperator>(c)) {
    if (b->getOpcode() == BO_LOr) {
      Verdict l = classify(b->getLHS(), ctx), r = classify(b->getRHS(), ctx);
      return l.test == Test::Missing ? l : r.test == Test::Missing ? r : Verdict{};
    }
    if (b->getOpcode() == BO_LAnd) {
      Verdict l = classify(b->getLHS(), ctx), r = classify(b->getRHS(), ctx);
      return l.test == Test::Present && r.test == Test::Present ? l : Verdict{};
    }
    if (b->getOpcode() != BO_EQ && b->getOpcode() != BO_NE) return {};
    return comparison(b->getLHS(), b->getRHS(), b->getOpcode() == BO_EQ, ctx);
  }
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(c)) {  // shared_ptr == nullptr
    auto k = op->getOperator();
    if (op->getNumArgs() == 1 && k == OO_Exclaim) return invert(classify(op->getArg(0), ctx));
    if (op->getNumArgs() != 2 || (k != OO_EqualEqual && k != OO_ExclaimEqual)) return {};
    return comparison(op->getArg(0), op->getArg(1), k == OO_EqualEqual, ctx);
  }
  Verdict v;
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(c)) {
    const CXXMethodDecl* md = m->getMethodDecl();
    if (!md) return {};
    // `if (pg)` on a smart pointer or optional is a call of its operator bool.
    bool test = isa<CXXConversionDecl>(md) || (md->getIdentifier() && md->getName() == "has_value");
    if (test && isHolder(m->getImplicitObjectArgument(), &v.holder)) v.test = Test::Present;
    return v;
  }
  if (isHolder(c, &v.holder)) v.test = Test::Present;
  return v;
}

// `return ...;`, or a block ending in one: control does not go on past it.
bool leaves(const Stmt* s) {
  if (const auto* block = dyn_cast_or_null<CompoundStmt>(s))
    s = block->body_empty() ? nullptr : block->body_back();
  return isa_and_nonnull<ReturnStmt>(s);
}

}  // namespace

bool isFallback(const std::vector<const Stmt*>& path, ASTContext& ctx, HoldsGroup holds,
                const ValueDecl** tested) {
  if (tested) *tested = nullptr;
  holdsGroup = &holds;
  struct Reset {
    ~Reset() { holdsGroup = nullptr; }
  } reset;
  auto found = [&](const ValueDecl* holder) {
    if (tested) *tested = holder;
    return true;
  };
  for (size_t i = path.size() - 1; i > 0; --i) {
    const Stmt* child = path[i];
    const Stmt* parent = path[i - 1];
    if (const auto* co = dyn_cast<ConditionalOperator>(parent)) {
      Verdict v = classify(co->getCond(), ctx);
      if (child == co->getFalseExpr() && v.test == Test::Present) return found(v.holder);
      if (child == co->getTrueExpr() && v.test == Test::Missing) return found(v.holder);
    } else if (const auto* bco = dyn_cast<BinaryConditionalOperator>(parent)) {
      // `pg ?: g()`: the right side runs when pg converts to false.
      const ValueDecl* holder = nullptr;
      if (child == bco->getFalseExpr() && isHolder(bco->getCommon(), &holder)) return found(holder);
    } else if (const auto* ifs = dyn_cast<IfStmt>(parent)) {
      Verdict v = classify(ifs->getCond(), ctx);
      if (child == ifs->getThen() && v.test == Test::Missing) return found(v.holder);
      if (child == ifs->getElse() && v.test == Test::Present) return found(v.holder);
    } else if (const auto* call = dyn_cast<CXXMemberCallExpr>(parent)) {
      const CXXMethodDecl* md = call->getMethodDecl();
      const ValueDecl* holder = nullptr;
      if (md && md->getIdentifier() && md->getName() == "value_or" && child != call->getCallee() &&
          isHolder(call->getImplicitObjectArgument(), &holder))
        return found(holder);
    } else if (const auto* block = dyn_cast<CompoundStmt>(parent)) {
      // `if (pg) return pg;` earlier in the block: what follows runs only without pg.
      for (const Stmt* before : block->body()) {
        if (before == child) break;
        const auto* ifs = dyn_cast<IfStmt>(before);
        if (!ifs || ifs->getElse() || !leaves(ifs->getThen())) continue;
        Verdict v = classify(ifs->getCond(), ctx);
        if (v.test == Test::Present) return found(v.holder);
      }
    } else if (isa<LambdaExpr>(parent)) {
      return false;  // a lambda body runs when called, not under the enclosing condition
    }
  }
  return false;
}

}  // namespace gridlock::frontend
