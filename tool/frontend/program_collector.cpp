#include "frontend/program_collector.h"

#include "frontend/usr.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>

namespace gridlock::frontend {
namespace {

using namespace clang;

// Strips what lies between a written argument and the value it stands for: conversions,
// temporaries, copies, std::move and std::forward.
const Expr* underlying(const Expr* e) {
  for (int guard = 0; e && guard < 16; ++guard) {
    e = e->IgnoreParenImpCasts();
    if (const auto* c = dyn_cast<ExprWithCleanups>(e)) {
      e = c->getSubExpr();
      continue;
    }
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) {
      e = m->getSubExpr();
      continue;
    }
    if (const auto* b = dyn_cast<CXXBindTemporaryExpr>(e)) {
      e = b->getSubExpr();
      continue;
    }
    if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(e)) {
      e = f->getSubExpr();
      continue;
    }
    if (const auto* c = dyn_cast<CXXConstructExpr>(e)) {
      if (c->getNumArgs() >= 1 && !isa<CXXTemporaryObjectExpr>(c) &&
          (c->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(c->getArg(1)))) {
        e = c->getArg(0);
        continue;
      }
      return e;
    }
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      const FunctionDecl* fd = call->getDirectCallee();
      if (fd && call->getNumArgs() == 1 && fd->isInStdNamespace() && fd->getIdentifier() &&
          (fd->getName() == "move" || fd->getName() == "forward")) {
        e = call->getArg(0);
        continue;
      }
      return e;
    }
    return e;
  }
  return e;
}

bool isNullLiteral(const Expr* e, ASTContext& ctx) {
  const Expr* u = underlying(e);
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(u)) return true;
  if (const auto* ref = dyn_cast<DeclRefExpr>(u))  // std::nullopt
    if (ref->getDecl()->isInStdNamespace() && ref->getDecl()->getIdentifier() &&
        ref->getDecl()->getName() == "nullopt")
      return true;
  if (const auto* lit = dyn_cast<IntegerLiteral>(u))
    return lit->getValue() == 0 && e->IgnoreParenImpCasts() != lit;  // 0 converted to a pointer
  return u->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull) &&
         e->getType()->isPointerType();
}

// In namespace std, members of std's classes included (isInStdNamespace looks one level up).
bool inStd(const Decl* d) {
  for (const DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (dc->isStdNamespace()) return true;
  return false;
}

std::optional<facts::Via> wrapperVia(const FunctionDecl* fd) {
  if (!inStd(fd) || !fd->getIdentifier()) return std::nullopt;
  StringRef n = fd->getName();
  if (n == "make_unique") return facts::Via::MakeUnique;
  if (n == "make_shared" || n == "allocate_shared") return facts::Via::MakeShared;
  if (n == "emplace" || n == "emplace_back" || n == "emplace_front") return facts::Via::Emplace;
  return std::nullopt;
}

}  // namespace

ProgramCollector::ProgramCollector(ASTContext& ctx, FilePlaces& places, const rules::RuleSet& rules,
                                   facts::TuFacts& out, bool rewriteFacts,
                                   const InferredTypes* inferred)
    : ctx_(ctx),
      sm_(ctx.getSourceManager()),
      places_(places),
      rules_(rules),
      sources_(rules, inferred),
      out_(out),
      from_{out.calls.size(),   out.sites.size(),      out.functions.size(),
            out.classes.size(), out.paramLists.size(), out.classBodies.size()} {
  if (rewriteFacts) rewrite_.emplace(ctx, places, sources_, usrs_, out);
}

bool ProgramCollector::underRoot(SourceLocation loc) {
  return loc.isValid() && places_.at(loc).underRoot;
}

bool ProgramCollector::TraverseDecl(Decl* d) {
  if (!d) return true;
  if (!isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl, ExportDecl>(d) &&
      d->getLocation().isValid() && !underRoot(d->getLocation()))
    return true;
  const auto* fd = dyn_cast<FunctionDecl>(d);
  if (!fd) return Base::TraverseDecl(d);
  // A lambda or a local class's method reaches what it reads for the function around it.
  if (!functions_.empty()) edge(fd);
  functions_.push_back(fd);
  std::vector<const VarDecl*> outer;
  outer.swap(locals_);
  bool init = inInitializer_;
  int lambdas = lambdaDepth_;
  inInitializer_ = false;
  lambdaDepth_ = 0;
  bool ok = Base::TraverseDecl(d);
  functions_.pop_back();
  locals_.swap(outer);
  inInitializer_ = init;
  lambdaDepth_ = lambdas;
  return ok;
}

bool ProgramCollector::TraverseCompoundStmt(CompoundStmt* s, DataRecursionQueue* queue) {
  size_t mark = locals_.size();
  bool ok = Base::TraverseCompoundStmt(s, queue);
  locals_.resize(mark);
  return ok;
}

bool ProgramCollector::TraverseDeclStmt(DeclStmt* s, DataRecursionQueue* queue) {
  bool ok = Base::TraverseDeclStmt(s, queue);
  // After its initializers: `auto g = f(...)` does not hold g yet.
  if (!rewrite_) return ok;
  for (const Decl* d : s->decls())
    if (const auto* vd = dyn_cast<VarDecl>(d); vd && rewrite_->keepsLocal(vd))
      locals_.push_back(vd);
  return ok;
}

bool ProgramCollector::TraverseLambdaExpr(LambdaExpr* e, DataRecursionQueue* queue) {
  ++lambdaDepth_;
  bool ok = Base::TraverseLambdaExpr(e, queue);
  --lambdaDepth_;
  return ok;
}

bool ProgramCollector::TraverseConstructorInitializer(CXXCtorInitializer* init) {
  if (init->isBaseInitializer() || init->isDelegatingInitializer())
    if (const Expr* e = init->getInit()) {
      if (const auto* c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
      via_[e] = init->isDelegatingInitializer() ? facts::Via::Delegating : facts::Via::BaseInit;
    }
  bool was = inInitializer_;
  inInitializer_ = true;
  bool ok = Base::TraverseConstructorInitializer(init);
  inInitializer_ = was;
  return ok;
}

// Some class around `d` is a specialization of this kind.
static bool inSpecialization(const Decl* d, bool (*kind)(TemplateSpecializationKind)) {
  for (const DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (const auto* s = dyn_cast<ClassTemplateSpecializationDecl>(dc))
      if (kind(s->getSpecializationKind())) return true;
  return false;
}

// Inside a class instantiated from a template: its members repeat the template's once per
// instantiation, and every call, site and read names the template's (usrOf). A member template
// of such a class is not itself an instantiation, so isTemplateInstantiation() lets it through;
// a header library's expression templates have thousands.
static bool inInstantiatedClass(const Decl* d) {
  return inSpecialization(d, isTemplateInstantiation);
}

bool ProgramCollector::VisitFunctionDecl(FunctionDecl* fd) {
  if (fd->isImplicit() || fd->isTemplateInstantiation() || inInstantiatedClass(fd)) return true;
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd))
    if (md->getParent()->isLambda()) return true;
  if (!seenDecls_.insert(fd).second) return true;
  facts::FunctionFact f;
  f.usr = usrs_.of(fd);
  if (f.usr.empty()) return true;
  f.name = fd->getQualifiedNameAsString();
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd)) {
    f.classUsr = usrs_.of(md->getParent());
    f.isVirtual = md->isVirtual();
    f.isStatic = md->isStatic();
    for (const CXXMethodDecl* o : md->overridden_methods()) f.overrides.push_back(usrs_.of(o));
  }
  f.isConstructor = isa<CXXConstructorDecl>(fd);
  for (const ParmVarDecl* p : fd->parameters()) {
    facts::ParamFact pf;
    pf.name = p->getName().str();
    pf.type = p->getType().getAsString(ctx_.getPrintingPolicy());
    pf.hasDefault = p->hasDefaultArg();
    if (pf.hasDefault && !p->hasUninstantiatedDefaultArg() && !p->hasUnparsedDefaultArg() &&
        p->getDefaultArg())
      pf.defaultText =
          Lexer::getSourceText(CharSourceRange::getTokenRange(p->getDefaultArg()->getSourceRange()),
                               sm_, ctx_.getLangOpts())
              .str();
    f.params.push_back(std::move(pf));
  }
  SourceLocation loc = sm_.getExpansionLoc(fd->getLocation());
  const FilePlaces::Info& file = places_.at(loc);
  f.file = file.path;
  f.line = sm_.getPresumedLineNumber(loc);
  f.isPublicApi = rules_.isPublicHeader(file.path);
  // Kept whether or not this unit calls it: a target `callers` may name, or an override of one,
  // which the target's calls reach. Any other function matters only where it is called, and
  // there it is a callee (finish()).
  if (targetOrOverride(fd)) named_.insert(f.usr);
  if (rewrite_) rewrite_->paramList(fd, f.usr);
  out_.functions.push_back(std::move(f));
  return true;
}

bool ProgramCollector::VisitDeclRefExpr(DeclRefExpr* e) {
  if (rewrite_) rewrite_->reference(e);
  return true;
}

bool ProgramCollector::VisitCXXRecordDecl(CXXRecordDecl* rd) {
  if (!rd->isThisDeclarationADefinition() || rd->isLambda()) return true;
  if (!seenDecls_.insert(rd).second) return true;
  facts::ClassFact c;
  c.usr = usrs_.of(rd);
  if (c.usr.empty()) return true;
  std::string name;
  llvm::raw_string_ostream os(name);
  rd->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), /*Qualified=*/true);
  c.name = os.str();
  for (const CXXBaseSpecifier& b : rd->bases())
    if (const CXXRecordDecl* base = b.getType()->getAsCXXRecordDecl())
      c.bases.push_back(usrs_.of(base));
  SourceLocation loc = sm_.getExpansionLoc(rd->getLocation());
  const FilePlaces::Info& file = places_.at(loc);
  c.file = file.path;
  c.line = sm_.getPresumedLineNumber(loc);
  if (file.interest) scannedClasses_.insert(c.usr);
  if (rewrite_ && file.underRoot) rewrite_->classBody(rd, c.usr, c.file);
  out_.classes.push_back(std::move(c));
  return true;
}

static facts::ArgFact bound(facts::Supplied supplied, int forwardedFrom = -1) {
  facts::ArgFact a;
  a.supplied = supplied;
  a.forwardedFrom = forwardedFrom;
  return a;
}

facts::ArgFact ProgramCollector::bind(const Expr* arg) const {
  using facts::Supplied;
  if (isa<CXXDefaultArgExpr>(arg)) return bound(Supplied::Default);
  if (isNullLiteral(arg, ctx_)) return bound(Supplied::Null);
  if (const auto* ref = dyn_cast<DeclRefExpr>(underlying(arg)))
    if (const auto* p = dyn_cast<ParmVarDecl>(ref->getDecl()))
      if (!functions_.empty() && p->getDeclContext() == functions_.back())
        return bound(Supplied::Forwarded, static_cast<int>(p->getFunctionScopeIndex()));
  return bound(Supplied::Explicit);
}

void ProgramCollector::site(const FunctionDecl* callee, SourceLocation loc, facts::Via via,
                            const CXXRecordDecl* constructed, const Expr* const* args,
                            unsigned numArgs, SourceLocation rparen) {
  callee = throughInheritance(callee);
  edge(callee);
  // A default constructor's constructions only matter to the rewriter (Store may give it a
  // parameter); `callers` asks about a parameter, which it has none of.
  if (!callee || (callee->getNumParams() == 0 && !(rewrite_ && isa<CXXConstructorDecl>(callee))))
    return;
  // Only what the scanned code declares can be a target.
  if (!underRoot(callee->getLocation())) return;
  loc = sm_.getExpansionLoc(loc);
  const FilePlaces::Info& file = places_.at(loc);
  if (!file.underRoot) return;
  facts::SiteFact s;
  s.calleeUsr = usrs_.of(callee);
  s.file = file.path;
  s.line = sm_.getPresumedLineNumber(loc);
  s.column = sm_.getPresumedColumnNumber(loc);
  s.via = via;
  if (!seenSites_.emplace(s.file, s.line, s.column, s.calleeUsr + "|" + facts::str(via)).second)
    return;
  if (!functions_.empty()) s.callerUsr = usrs_.of(throughInheritance(functions_.back()));
  if (constructed) s.classUsr = usrs_.of(constructed);
  for (unsigned i = 0; i < callee->getNumParams(); ++i)
    s.args.push_back(i < numArgs ? bind(args[i]) : bound(facts::Supplied::Default));
  argumentPlaces(s, callee, args, numArgs, rparen);
  out_.sites.push_back(std::move(s));
}

void ProgramCollector::argumentPlaces(facts::SiteFact& s, const FunctionDecl* callee,
                                      const Expr* const* args, unsigned numArgs,
                                      SourceLocation rparen) {
  bool inMacro = false;
  if (rparen.isValid()) {
    rparen = writtenAt(sm_, rparen);
    inMacro = rparen.isMacroID();
    s.rparen = sm_.getFileOffset(sm_.getExpansionLoc(rparen));
  }
  for (unsigned i = 0; i < numArgs && i < s.args.size(); ++i) {
    if (isa<CXXDefaultArgExpr>(args[i])) continue;
    ++s.written;
    SourceRange range = args[i]->getSourceRange();
    SourceLocation b = writtenAt(sm_, range.getBegin()), e = writtenAt(sm_, range.getEnd());
    if (b.isMacroID() || e.isMacroID() || b.isInvalid() || e.isInvalid()) {
      inMacro = true;
      continue;
    }
    unsigned begin = sm_.getFileOffset(b);
    unsigned end = sm_.getFileOffset(Lexer::getLocForEndOfToken(e, 0, sm_, ctx_.getLangOpts()));
    if (end > begin) {
      s.args[i].offset = begin;
      s.args[i].length = end - begin;
      s.args[i].insertAt = insertionPoint(sm_, b);
    }
  }
  s.inMacro = inMacro;
  for (unsigned i = 0; i < s.args.size(); ++i) {
    const rules::TypeRule* rule = sources_.ruleOf(callee->getParamDecl(i)->getType());
    if (!rule || rule->yields == facts::Yields::State) continue;
    s.args[i].yields = rule->yields;
    s.args[i].shape = sources_.shapeOf(callee->getParamDecl(i)->getType());
  }
  if (!rewrite_) return;
  if (s.rparen) rewrite_->digest(sm_.getExpansionLoc(rparen), s.file);
  s.sources = rewrite_->sourcesAt(here());
}

bool ProgramCollector::VisitCallExpr(CallExpr* e) {
  if (rewrite_) rewrite_->calleeOf(e);
  const FunctionDecl* fd = e->getDirectCallee();
  if (!fd) {
    if (rewrite_) rewrite_->dependentCall(e);
    return true;
  }
  edge(fd);
  // A call of a template's instantiation is a call of the template (the code that is edited).
  if (rewrite_ && !isa<CXXOperatorCallExpr>(e) && !wrapperVia(fd))
    rewrite_->call(
        e, fd->getTemplateInstantiationPattern() ? fd->getTemplateInstantiationPattern() : fd,
        here());
  if (std::optional<facts::Via> via = wrapperVia(fd)) {
    // The construction happens inside the library's template; find it there and bind the
    // user's arguments to the constructor the library calls.
    QualType type;
    const Expr* const* args = e->getArgs();
    unsigned n = e->getNumArgs();
    if (*via == facts::Via::Emplace) {
      const auto* md = dyn_cast<CXXMethodDecl>(fd);
      const auto* spec = md ? dyn_cast<ClassTemplateSpecializationDecl>(md->getParent()) : nullptr;
      if (!spec || spec->getTemplateArgs().size() == 0 ||
          spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
        return true;
      type = spec->getTemplateArgs()[0].getAsType();
      if (fd->getName() == "emplace" && n > 0) {  // vector::emplace(position, args...)
        ++args;
        --n;
      }
    } else {
      const TemplateArgumentList* targs = fd->getTemplateSpecializationArgs();
      if (!targs || targs->size() == 0 || (*targs)[0].getKind() != TemplateArgument::Type)
        return true;
      type = (*targs)[0].getAsType();
      if (fd->getName() == "allocate_shared" && n > 0) {
        ++args;
        --n;
      }
    }
    if (const CXXConstructorDecl* ctor = constructionIn(fd, type, 0))
      site(ctor, e->getBeginLoc(), *via, ctor->getParent(), args, n, e->getRParenLoc());
    return true;
  }
  if (isa<CXXOperatorCallExpr>(e) && isa<CXXMethodDecl>(fd)) {
    // a.operator()(x): the object is the first argument of the expression, not a parameter.
    site(fd, e->getBeginLoc(), facts::Via::Call, nullptr, e->getArgs() + 1, e->getNumArgs() - 1,
         e->getRParenLoc());
    return true;
  }
  site(fd, e->getBeginLoc(), facts::Via::Call, nullptr, e->getArgs(), e->getNumArgs(),
       e->getRParenLoc());
  return true;
}

bool ProgramCollector::VisitCXXNewExpr(CXXNewExpr* e) {
  if (const CXXConstructExpr* c = e->getConstructExpr()) via_[c] = facts::Via::New;
  return true;
}

bool ProgramCollector::VisitCXXConstructExpr(CXXConstructExpr* e) {
  const CXXConstructorDecl* ctor = e->getConstructor();
  edge(ctor);
  if (!ctor || ctor->isCopyOrMoveConstructor()) return true;
  facts::Via via = facts::Via::Direct;
  if (auto it = via_.find(e); it != via_.end()) via = it->second;
  if (ctor->isInheritingConstructor() && via == facts::Via::Direct) via = facts::Via::Inherited;
  // An implicit base initializer has no place of its own: it is the constructor's.
  SourceLocation loc = e->getBeginLoc();
  if (loc.isInvalid() && !functions_.empty()) loc = functions_.back()->getLocation();
  // A base initializer belongs to the class whose constructor holds it.
  const CXXRecordDecl* cls = ctor->getParent();
  if ((via == facts::Via::BaseInit || via == facts::Via::Delegating) && !functions_.empty())
    if (const auto* md = dyn_cast<CXXMethodDecl>(functions_.back())) cls = md->getParent();
  // An implicit construction (an implicit base initializer) has no argument list to edit.
  SourceRange parens = e->getParenOrBraceRange();
  site(ctor, loc, via, cls, e->getArgs(), e->getNumArgs(),
       parens.isValid() ? parens.getEnd() : SourceLocation());
  return true;
}

void ProgramCollector::edge(const FunctionDecl* callee) {
  if (!callee || !underRoot(callee->getLocation())) return;
  callees_.insert(callee);
  if (!functions_.empty()) edges_.insert({functions_.back(), callee});
}

bool ProgramCollector::declaredWherePacksScan(const FunctionDecl* fd) {
  for (const FunctionDecl* r : fd->redecls())
    if (r->getLocation().isValid() && places_.at(r->getLocation()).interest) return true;
  return false;
}

bool ProgramCollector::targetOrOverride(const FunctionDecl* fd) {
  if (declaredWherePacksScan(fd)) return true;
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd))
    for (const CXXMethodDecl* o : md->overridden_methods())
      if (targetOrOverride(o)) return true;
  return false;
}

// Whether the unit holds what `fd` runs. An instantiation Clang declared but did not define
// (named only in an unevaluated operand, or in a template nothing instantiates here) is not
// run from this unit, and its template's body is walked; one an `extern template` defers is
// defined in another unit.
static bool bodyHere(const FunctionDecl* fd) {
  if (fd->hasBody()) return true;
  auto deferred = [](TemplateSpecializationKind k) {
    return k == TSK_ExplicitInstantiationDeclaration;
  };
  if (deferred(fd->getTemplateSpecializationKind()) || inSpecialization(fd, deferred)) return false;
  const FunctionDecl* pattern = fd->getTemplateInstantiationPattern();
  return pattern && pattern->hasBody();
}

bool ProgramCollector::mayReachScope(const FunctionDecl* fd) {
  if (!bodyHere(fd)) return true;  // defined in another unit, which sees what it reads
  if (declaredWherePacksScan(fd)) return true;
  if (rules_.setter(fd->getQualifiedNameAsString())) return true;  // it holds a write
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd)) {
    if (md->isVirtual()) return true;  // an override elsewhere may read
    if (isa<CXXConstructorDecl>(md))
      for (const FieldDecl* f : md->getParent()->fields())
        if (f->hasInClassInitializer()) return true;
  }
  for (const ParmVarDecl* p : fd->parameters())
    if (sources_.ruleOf(p->getType())) return true;
  return false;
}

void ProgramCollector::finish() {
  std::set<std::string> seeds;
  for (const auto* reads : {&out_.reads, &out_.exemptReads})
    for (const facts::Read& r : *reads) {
      if (!r.enclosingUsr.empty()) seeds.insert(r.enclosingUsr);
      if (!r.guardFunction.empty()) seeds.insert(r.guardFunction);
    }
  for (const FunctionDecl* callee : callees_)
    if (mayReachScope(callee)) seeds.insert(usrs_.of(throughInheritance(callee)));
  std::vector<std::pair<std::string, std::string>> edges;
  for (const auto& [caller, callee] : edges_)
    edges.emplace_back(usrs_.of(throughInheritance(caller)), usrs_.of(throughInheritance(callee)));
  std::set<std::string> reaching = reachingUsrs(seeds, edges);
  keepReachingCalls(out_, from_, reaching);
  keepReachingDecls(out_, from_, reaching, named_, scannedClasses_);
}

const CXXConstructorDecl* ProgramCollector::constructionIn(const FunctionDecl* fd, QualType type,
                                                           int depth) {
  if (!fd || depth > 10) return nullptr;
  std::vector<const Stmt*> work;
  if (const Stmt* body = fd->getBody()) work.push_back(body);
  // A library constructor passes the arguments on in its member initializers
  // (make_shared: __shared_ptr -> __shared_count -> _Sp_counted_ptr_inplace -> construct).
  if (const auto* ctor = dyn_cast<CXXConstructorDecl>(fd))
    for (const CXXCtorInitializer* init : ctor->inits())
      if (init->getInit()) work.push_back(init->getInit());
  if (work.empty()) return nullptr;
  QualType want = type.getCanonicalType().getUnqualifiedType();
  const CXXConstructorDecl* found = nullptr;
  while (!work.empty() && !found) {
    const Stmt* s = work.back();
    work.pop_back();
    if (!s) continue;
    const FunctionDecl* next = nullptr;
    if (const auto* c = dyn_cast<CXXConstructExpr>(s)) {
      const CXXConstructorDecl* ctor = c->getConstructor();
      if (c->getType().getCanonicalType().getUnqualifiedType() == want && ctor &&
          !ctor->isCopyOrMoveConstructor())
        return ctor;
      next = ctor;
    } else if (const auto* call = dyn_cast<CallExpr>(s)) {
      next = call->getDirectCallee();
    }
    // Follow the library only: a user function in between would be a site of its own.
    if (next && next != fd && (inStd(next) || sm_.isInSystemHeader(next->getLocation())))
      if ((found = constructionIn(next, type, depth + 1))) return found;
    for (const Stmt* child : s->children()) work.push_back(child);
  }
  return found;
}

}  // namespace gridlock::frontend
