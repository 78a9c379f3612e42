#include "frontend/guard.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace gridlock::frontend {
namespace {

using namespace clang;
using facts::Expect;

// A group holder a condition says is missing on one of its sides (`decl` may be null: an
// array element, a getter's object that is no declaration).
struct Missing {
  bool is = false;
  const ValueDecl* decl = nullptr;
};

// What a condition says where it is true and where it is false: the holder missing there, and
// the facts about parameters (each side a conjunction; a disjunction says nothing).
struct Sides {
  Missing ifTrue, ifFalse;
  std::vector<ParamTestDecl> factsTrue, factsFalse;
};

Sides swapped(Sides s) {
  std::swap(s.ifTrue, s.ifFalse);
  std::swap(s.factsTrue, s.factsFalse);
  return s;
}

void append(std::vector<ParamTestDecl>& to, const std::vector<ParamTestDecl>& from) {
  to.insert(to.end(), from.begin(), from.end());
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

// The parameter `e` names, or null.
const ParmVarDecl* paramOf(const Expr* e) {
  const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
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
Sides comparison(const Expr* l, const Expr* r, bool equal, ASTContext& ctx) {
  const Expr* tested = isNullValue(r, ctx) ? l : isNullValue(l, ctx) ? r : nullptr;
  if (!tested) return {};
  Sides s;
  Missing& m = equal ? s.ifTrue : s.ifFalse;
  m.is = isHolder(tested, &m.decl);
  if (const ParmVarDecl* p = paramOf(tested)) {
    s.factsTrue.push_back({p, equal ? Expect::None : Expect::NotNone});
    s.factsFalse.push_back({p, equal ? Expect::NotNone : Expect::None});
  }
  return s;
}

// A value tested for its truth (`if (pg)`, `if (flag)`, `if (pg.has_value())`).
Sides truth(const Expr* tested) {
  Sides s;
  s.ifFalse.is = isHolder(tested, &s.ifFalse.decl);
  if (const ParmVarDecl* p = paramOf(tested)) {
    s.factsTrue.push_back({p, Expect::True});
    s.factsFalse.push_back({p, Expect::False});
  }
  return s;
}

Sides classify(const Expr* c, ASTContext& ctx) {
  if (!c) return {};
  c = c->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(c))
    return u->getOpcode() == UO_LNot ? swapped(classify(u->getSubExpr(), ctx)) : Sides{};
  if (const auto* b = dyn_cast<BinaryOperator>(c)) {
    bool orOp = b->getOpcode() == BO_LOr;
    if (orOp || b->getOpcode() == BO_LAnd) {
      // `a || b` is `!(!a && !b)`: classify it as the conjunction of its negations.
      Sides l = classify(b->getLHS(), ctx), r = classify(b->getRHS(), ctx);
      if (orOp) {
        l = swapped(std::move(l));
        r = swapped(std::move(r));
      }
      Sides s;
      // The conjunction is true where both are: one side's missing holder is missing there,
      // and both sides' facts hold. It is false where either is: a holder is missing there
      // only if each side's falsehood says one is.
      s.ifTrue = l.ifTrue.is ? l.ifTrue : r.ifTrue;
      if (l.ifFalse.is && r.ifFalse.is) s.ifFalse = l.ifFalse;
      s.factsTrue = std::move(l.factsTrue);
      append(s.factsTrue, r.factsTrue);
      return orOp ? swapped(std::move(s)) : s;
    }
    if (b->getOpcode() != BO_EQ && b->getOpcode() != BO_NE) return {};
    return comparison(b->getLHS(), b->getRHS(), b->getOpcode() == BO_EQ, ctx);
  }
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(c)) {  // shared_ptr == nullptr
    auto k = op->getOperator();
    if (op->getNumArgs() == 1 && k == OO_Exclaim) return swapped(classify(op->getArg(0), ctx));
    if (op->getNumArgs() != 2 || (k != OO_EqualEqual && k != OO_ExclaimEqual)) return {};
    return comparison(op->getArg(0), op->getArg(1), k == OO_EqualEqual, ctx);
  }
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(c)) {
    const CXXMethodDecl* md = m->getMethodDecl();
    if (!md) return {};
    // `if (pg)` on a smart pointer or optional is a call of its operator bool.
    bool test = isa<CXXConversionDecl>(md) || (md->getIdentifier() && md->getName() == "has_value");
    return test ? truth(m->getImplicitObjectArgument()) : Sides{};
  }
  return truth(c);
}

// `return ...;`, or a block ending in one: control does not go on past it.
bool leaves(const Stmt* s) {
  if (const auto* block = dyn_cast_or_null<CompoundStmt>(s))
    s = block->body_empty() ? nullptr : block->body_back();
  return isa_and_nonnull<ReturnStmt>(s);
}

}  // namespace

bool isFallback(const std::vector<const Stmt*>& path, ASTContext& ctx, HoldsGroup holds,
                const ValueDecl** tested, std::vector<ParamTestDecl>* tests) {
  if (tested) *tested = nullptr;
  holdsGroup = &holds;
  struct Reset {
    ~Reset() { holdsGroup = nullptr; }
  } reset;
  bool found = false;
  // What the construct around the read says where the read runs: the missing holder (the
  // first, innermost, is the guard) and the facts.
  auto under = [&](const Missing& m, const std::vector<ParamTestDecl>& facts) {
    if (m.is && !found) {
      found = true;
      if (tested) *tested = m.decl;
    }
    if (tests) append(*tests, facts);
  };
  for (size_t i = path.size() - 1; i > 0; --i) {
    const Stmt* child = path[i];
    const Stmt* parent = path[i - 1];
    if (const auto* co = dyn_cast<ConditionalOperator>(parent)) {
      Sides s = classify(co->getCond(), ctx);
      if (child == co->getFalseExpr()) under(s.ifFalse, s.factsFalse);
      if (child == co->getTrueExpr()) under(s.ifTrue, s.factsTrue);
    } else if (const auto* bco = dyn_cast<BinaryConditionalOperator>(parent)) {
      // `pg ?: g()`: the right side runs when pg converts to false.
      if (child == bco->getFalseExpr()) {
        Sides s = truth(bco->getCommon());
        under(s.ifFalse, s.factsFalse);
      }
    } else if (const auto* ifs = dyn_cast<IfStmt>(parent)) {
      Sides s = classify(ifs->getCond(), ctx);
      if (child == ifs->getThen()) under(s.ifTrue, s.factsTrue);
      if (child == ifs->getElse()) under(s.ifFalse, s.factsFalse);
    } else if (const auto* call = dyn_cast<CXXMemberCallExpr>(parent)) {
      const CXXMethodDecl* md = call->getMethodDecl();
      Missing m;
      if (md && md->getIdentifier() && md->getName() == "value_or" && child != call->getCallee() &&
          isHolder(call->getImplicitObjectArgument(), &m.decl)) {
        m.is = true;
        under(m, {});
      }
    } else if (const auto* block = dyn_cast<CompoundStmt>(parent)) {
      // `if (pg) return pg;` earlier in the block: what follows runs only without pg.
      for (const Stmt* before : block->body()) {
        if (before == child) break;
        const auto* ifs = dyn_cast<IfStmt>(before);
        if (!ifs || ifs->getElse() || !leaves(ifs->getThen())) continue;
        Sides s = classify(ifs->getCond(), ctx);
        under(s.ifFalse, s.factsFalse);
      }
    } else if (isa<LambdaExpr>(parent)) {
      break;  // a lambda body runs when called, not under the enclosing condition
    }
  }
  return found;
}

namespace {

// Whether each use of `param` under `s` (its parent `parent`) is a load of its value.
bool loadsOnly(const Stmt* s, const Stmt* parent, const ParmVarDecl* param) {
  if (!s) return true;
  if (const auto* ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == param) {
    const auto* cast = dyn_cast_or_null<ImplicitCastExpr>(parent);
    return cast && cast->getCastKind() == CK_LValueToRValue;
  }
  for (const Stmt* c : s->children())
    if (!loadsOnly(c, s, param)) return false;
  return true;
}

}  // namespace

bool onlyRead(const Stmt* body, const ParmVarDecl* param) {
  return body && loadsOnly(body, nullptr, param);
}

}  // namespace gridlock::frontend
