#include "frontend/program_collector.h"

#include "frontend/usr.h"
#include "support/file_io.h"

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

// The offset where the line holding `at` starts.
unsigned lineStart(const SourceManager& sm, SourceLocation at) {
  llvm::StringRef buffer = sm.getBufferData(sm.getFileID(at));
  unsigned offset = sm.getFileOffset(at);
  while (offset > 0 && buffer[offset - 1] != '\n') --offset;
  return offset;
}

// The whitespace before `at` when only whitespace precedes it on its line, else "" (and
// `starts` false).
std::string leadingSpace(const SourceManager& sm, SourceLocation at, bool* starts = nullptr) {
  llvm::StringRef lead =
      sm.getBufferData(sm.getFileID(at)).slice(lineStart(sm, at), sm.getFileOffset(at));
  bool blank = lead.find_first_not_of(" \t") == llvm::StringRef::npos;
  if (starts) *starts = blank;
  return blank ? lead.str() : std::string();
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
      rewriteFacts_(rewriteFacts),
      from_{out.calls.size(), out.sites.size(), out.functions.size(), out.classes.size(),
            out.paramLists.size()} {}

// A location written in a macro argument (EXPECT_EQ(f(x), 1)) is written in the file: edit it
// there. One spelled in a macro body is not.
SourceLocation ProgramCollector::written(SourceLocation l) const {
  while (l.isMacroID() && sm_.isMacroArgExpansion(l)) l = sm_.getImmediateSpellingLoc(l);
  return l;
}

// Where an argument inserted before the one starting at `argBegin` goes: before the comments
// that lead it (`f(4, /*seq=*/seq)`: a comment names the argument it precedes).
unsigned ProgramCollector::insertionPoint(SourceLocation argBegin) const {
  llvm::StringRef buffer = sm_.getBufferData(sm_.getFileID(argBegin));
  unsigned at = sm_.getFileOffset(argBegin);
  for (;;) {
    unsigned j = at;
    while (j > 0 && std::isspace(static_cast<unsigned char>(buffer[j - 1]))) --j;
    if (j < 2 || buffer[j - 1] != '/' || buffer[j - 2] != '*') return at;
    size_t open = buffer.substr(0, j - 2).rfind("/*");
    if (open == llvm::StringRef::npos) return at;
    at = static_cast<unsigned>(open);
  }
}

bool ProgramCollector::underRoot(SourceLocation loc) {
  return loc.isValid() && places_.at(loc).underRoot;
}

const std::string& ProgramCollector::usr(const Decl* d) {
  auto it = usrs_.find(d);
  if (it != usrs_.end()) return it->second;
  return usrs_[d] = usrOf(d);
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
  if (!rewriteFacts_) return ok;
  for (const Decl* d : s->decls())
    if (const auto* vd = dyn_cast<VarDecl>(d))
      if (vd->getIdentifier() && sources_.ruleOf(vd->getType())) locals_.push_back(vd);
  return ok;
}

bool ProgramCollector::TraverseLambdaExpr(LambdaExpr* e, DataRecursionQueue* queue) {
  ++lambdaDepth_;
  bool ok = Base::TraverseLambdaExpr(e, queue);
  --lambdaDepth_;
  return ok;
}

std::vector<facts::SourceFact> ProgramCollector::sourcesHere() {
  if (!rewriteFacts_ || functions_.empty() || lambdaDepth_ > 0) return {};
  const FunctionDecl* fn = functions_.back();
  // A function's parameters and fields are the same at every call it makes: computed once.
  auto [it, fresh] = scopeCache_.try_emplace(fn);
  ScopeCache& c = it->second;
  if (fresh) {
    c.params = sources_.facts(sources_.candidates(fn, {}, false));
    std::vector<facts::SourceFact> all = sources_.facts(sources_.candidates(fn, {}, true));
    c.fields.assign(all.begin() + c.params.size(), all.end());
  }
  std::vector<facts::SourceFact> out = c.params;
  if (!locals_.empty()) {
    std::vector<facts::SourceFact> withLocals =
        sources_.facts(sources_.candidates(fn, locals_, false));
    out.assign(withLocals.begin(), withLocals.end());
  }
  if (!inInitializer_) out.insert(out.end(), c.fields.begin(), c.fields.end());
  return out;
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
  f.usr = usr(fd);
  if (f.usr.empty()) return true;
  f.name = fd->getQualifiedNameAsString();
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd)) {
    f.classUsr = usr(md->getParent());
    f.isVirtual = md->isVirtual();
    f.isStatic = md->isStatic();
    for (const CXXMethodDecl* o : md->overridden_methods()) f.overrides.push_back(usr(o));
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
  paramList(fd, f.usr);
  out_.functions.push_back(std::move(f));
  return true;
}

// MD5 of a file Thread may edit, so the edit can refuse a file changed since the scan. Only
// the rewriter edits: a scan's facts (and its cache entries) carry no digest of a file that
// holds no read.
void ProgramCollector::recordDigest(SourceLocation fileLoc, const std::string& path) {
  if (!rewriteFacts_) return;
  std::string& digest = out_.digests[path];
  if (!digest.empty()) return;
  llvm::StringRef buffer = sm_.getBufferData(sm_.getFileID(fileLoc));
  digest = support::md5Hex({buffer.data(), buffer.size()});
}

void ProgramCollector::paramList(const FunctionDecl* fd, const std::string& u) {
  FunctionTypeLoc tl = fd->getFunctionTypeLoc();
  if (!tl) return;
  SourceLocation l = tl.getLParenLoc(), r = tl.getRParenLoc();
  if (l.isInvalid() || r.isInvalid()) return;
  facts::ParamListFact p;
  p.usr = u;
  p.inMacro = l.isMacroID() || r.isMacroID();
  SourceLocation fl = sm_.getExpansionLoc(l), fr = sm_.getExpansionLoc(r);
  if (sm_.getFileID(fl) != sm_.getFileID(fr)) return;
  p.file = places_.at(fl).path;
  p.lparen = sm_.getFileOffset(fl);
  p.rparen = sm_.getFileOffset(fr);
  p.written = fd->getNumParams();
  for (const ParmVarDecl* prm : fd->parameters()) {
    SourceLocation b = prm->getBeginLoc();
    if (b.isMacroID() || b.isInvalid())
      p.inMacro = true;
    else
      p.paramBegins.push_back(sm_.getFileOffset(sm_.getExpansionLoc(b)));
    p.defaults.emplace_back(0, 0);
    SourceRange d = prm->getDefaultArgRange();
    if (!rewriteFacts_ || !prm->hasDefaultArg() || d.isInvalid() || d.getBegin().isMacroID() ||
        d.getEnd().isMacroID() || prm->hasInheritedDefaultArg())
      continue;
    // From the end of the declarator (before ` = `) to the end of the default expression.
    unsigned begin = sm_.getFileOffset(d.getBegin());
    unsigned end =
        sm_.getFileOffset(Lexer::getLocForEndOfToken(d.getEnd(), 0, sm_, ctx_.getLangOpts()));
    llvm::StringRef buffer = sm_.getBufferData(sm_.getFileID(d.getBegin()));
    unsigned eq = begin;
    while (eq > 0 && buffer[eq - 1] != '=') --eq;
    if (eq == 0) continue;
    --eq;
    while (eq > 0 && (buffer[eq - 1] == ' ' || buffer[eq - 1] == '\t')) --eq;
    p.defaults.back() = {eq, end};
  }
  p.isTemplate = fd->isTemplated();
  p.definition = fd->doesThisDeclarationHaveABody();
  if (const auto* ctor = dyn_cast<CXXConstructorDecl>(fd); ctor && rewriteFacts_ && p.definition)
    initializers(ctor, p);
  if (rewriteFacts_) {
    body(fd, p);
    p.aliases = aliasesAt(fd, fl);
  }
  recordDigest(fl, p.file);
  out_.paramLists.push_back(std::move(p));
}

std::vector<std::pair<std::string, std::string>> ProgramCollector::aliasesAt(const FunctionDecl* fd,
                                                                             SourceLocation at) {
  std::vector<std::pair<std::string, std::string>> out;
  const FileID file = sm_.getFileID(at);
  for (const DeclContext* dc = fd->getLexicalDeclContext(); dc; dc = dc->getLexicalParent()) {
    if (!dc->isFileContext()) continue;  // a class: its aliases cannot name a namespace here
    auto [it, fresh] = aliasCache_.try_emplace(dc);
    if (fresh)
      for (const Decl* d : dc->decls()) {
        const SourceLocation l = sm_.getExpansionLoc(d->getLocation());
        if (const auto* a = dyn_cast<NamespaceAliasDecl>(d)) {
          if (const NamespaceDecl* ns = a->getNamespace())
            it->second.push_back({l, a->getNameAsString(), ns->getQualifiedNameAsString()});
        } else if (const auto* u = dyn_cast<UsingDirectiveDecl>(d)) {
          // `using namespace a::b;`: a name in a::b is written without that prefix.
          if (const NamespaceDecl* ns = u->getNominatedNamespace())
            it->second.push_back({l, "", ns->getQualifiedNameAsString()});
        } else if (const auto* u = dyn_cast<UsingDecl>(d)) {
          // `using a::b::T;`: T names a::b::T here (one entity: an overload set is left out).
          if (u->shadow_size() == 1)
            if (const auto* target = dyn_cast<NamedDecl>(u->shadow_begin()->getTargetDecl()))
              if (isa<TypeDecl, NamespaceDecl>(target))
                it->second.push_back({l, u->getNameAsString(), target->getQualifiedNameAsString()});
        }
      }
    for (const Alias& a : it->second)
      if (sm_.getFileID(a.at) == file && sm_.isBeforeInTranslationUnit(a.at, at))
        out.emplace_back(a.name, a.target);
  }
  return out;
}

void ProgramCollector::initializers(const CXXConstructorDecl* ctor, facts::ParamListFact& p) {
  p.delegating = ctor->isDelegatingConstructor();
  const auto* block = dyn_cast_or_null<CompoundStmt>(ctor->getBody());
  if (!block || block->getLBracLoc().isMacroID()) return;  // a function-try-block, a macro
  // inits() are in the order members are declared; the new one goes after the last written.
  SourceLocation after;
  for (const CXXCtorInitializer* init : ctor->inits()) {
    if (!init->isWritten()) continue;
    SourceLocation end = init->getSourceRange().getEnd();
    if (end.isInvalid() || end.isMacroID()) return;
    if (after.isInvalid() || sm_.isBeforeInTranslationUnit(after, end)) after = end;
  }
  llvm::StringRef buffer = sm_.getBufferData(sm_.getFileID(block->getLBracLoc()));
  if (after.isValid()) {
    p.initAfter = true;
    p.initAt = sm_.getFileOffset(Lexer::getLocForEndOfToken(after, 0, sm_, ctx_.getLangOpts()));
    return;
  }
  // After the declarator's last token (`)`, `noexcept`), before the space that leads the brace.
  unsigned at = sm_.getFileOffset(block->getLBracLoc());
  while (at > 0 && std::isspace(static_cast<unsigned char>(buffer[at - 1]))) --at;
  p.initAt = at;
}

void ProgramCollector::body(const FunctionDecl* fd, facts::ParamListFact& p) {
  if (!fd->doesThisDeclarationHaveABody()) return;
  const auto* block = dyn_cast_or_null<CompoundStmt>(fd->getBody());
  if (!block || block->body_empty()) return;
  SourceLocation first = block->body_front()->getBeginLoc();
  // A statement that a macro begins (a test's skip, a CHECK) starts where the macro is written.
  if (SourceLocation begin;
      first.isMacroID() && Lexer::isAtStartOfMacroExpansion(first, sm_, ctx_.getLangOpts(), &begin))
    first = sm_.getExpansionLoc(begin);
  if (first.isMacroID() || first.isInvalid()) return;
  if (sm_.getFileID(first) != sm_.getFileID(sm_.getExpansionLoc(block->getLBracLoc()))) return;
  p.bodyFirst = sm_.getFileOffset(first);
  p.bodyIndent = leadingSpace(sm_, first, &p.bodyIndented);
  std::vector<const Stmt*> work{block};
  while (!work.empty()) {
    const Stmt* st = work.back();
    work.pop_back();
    if (!st) continue;
    if (const auto* ds = dyn_cast<DeclStmt>(st))
      for (const Decl* d : ds->decls())
        if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getIdentifier())
          p.bodyNames.push_back(vd->getName().str());
    for (const Stmt* child : st->children()) work.push_back(child);
  }
}

void ProgramCollector::dependentCall(const CallExpr* e) {
  const Expr* callee = e->getCallee() ? e->getCallee()->IgnoreParenImpCasts() : nullptr;
  DeclarationName name;
  if (const auto* ule = dyn_cast_or_null<OverloadExpr>(callee))
    name = ule->getName();
  else if (const auto* dm = dyn_cast_or_null<CXXDependentScopeMemberExpr>(callee))
    name = dm->getMember();
  else if (const auto* dr = dyn_cast_or_null<DependentScopeDeclRefExpr>(callee))
    name = dr->getDeclName();
  if (!name.isIdentifier() || !name.getAsIdentifierInfo()) return;  // empty, or an operator
  SourceLocation r = written(e->getRParenLoc());
  if (r.isInvalid()) return;
  SourceLocation loc = sm_.getExpansionLoc(r);
  const FilePlaces::Info& file = places_.at(loc);
  if (!file.underRoot) return;
  out_.dependentCalls.push_back({name.getAsIdentifierInfo()->getName().str(), file.path,
                                 sm_.getPresumedLineNumber(loc), sm_.getFileOffset(loc)});
}

void ProgramCollector::call(const CallExpr* e, const FunctionDecl* callee) {
  if (!callee || !underRoot(callee->getLocation())) return;
  SourceLocation begin = e->getBeginLoc(), r = e->getRParenLoc();
  if (begin.isInvalid() || r.isInvalid()) return;
  begin = written(begin);
  r = written(r);
  SourceLocation loc = sm_.getExpansionLoc(begin);
  const FilePlaces::Info& file = places_.at(loc);
  if (!file.underRoot) return;
  facts::CallFact c;
  c.calleeUsr = usr(callee);
  if (!functions_.empty()) c.callerUsr = usr(throughInheritance(functions_.back()));
  c.file = file.path;
  c.line = sm_.getPresumedLineNumber(loc);
  c.column = sm_.getPresumedColumnNumber(loc);
  c.inMacro = begin.isMacroID() || r.isMacroID();
  c.rparen = sm_.getFileOffset(sm_.getExpansionLoc(r));
  for (const Expr* a : e->arguments()) {
    if (isa<CXXDefaultArgExpr>(a)) continue;
    ++c.written;
    SourceLocation b = written(a->getBeginLoc());
    if (b.isMacroID() || b.isInvalid())
      c.inMacro = true;
    else
      c.argBegins.push_back(insertionPoint(b));
  }
  c.inLambda = lambdaDepth_ > 0;
  c.sources = sourcesHere();
  recordDigest(loc, c.file);
  out_.calls.push_back(std::move(c));
}

bool ProgramCollector::VisitDeclRefExpr(DeclRefExpr* e) {
  const auto* fd = dyn_cast<FunctionDecl>(e->getDecl());
  if (!fd || calleeRefs_.count(e) || !underRoot(fd->getLocation())) return true;
  if (const FunctionDecl* p = fd->getTemplateInstantiationPattern()) fd = p;
  if (addressTaken_.insert(usr(fd)).second) out_.addressTaken.push_back(usr(fd));
  return true;
}

bool ProgramCollector::VisitCXXRecordDecl(CXXRecordDecl* rd) {
  if (!rd->isThisDeclarationADefinition() || rd->isLambda()) return true;
  if (!seenDecls_.insert(rd).second) return true;
  facts::ClassFact c;
  c.usr = usr(rd);
  if (c.usr.empty()) return true;
  std::string name;
  llvm::raw_string_ostream os(name);
  rd->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), /*Qualified=*/true);
  c.name = os.str();
  for (const CXXBaseSpecifier& b : rd->bases())
    if (const CXXRecordDecl* base = b.getType()->getAsCXXRecordDecl()) c.bases.push_back(usr(base));
  SourceLocation loc = sm_.getExpansionLoc(rd->getLocation());
  const FilePlaces::Info& file = places_.at(loc);
  c.file = file.path;
  c.line = sm_.getPresumedLineNumber(loc);
  if (file.interest) scannedClasses_.insert(c.usr);
  if (rewriteFacts_ && file.underRoot) classBody(rd, c);
  out_.classes.push_back(std::move(c));
  return true;
}

void ProgramCollector::classBody(const CXXRecordDecl* rd, facts::ClassFact& c) {
  SourceLocation head = rd->getBeginLoc(), brace = rd->getBraceRange().getEnd();
  c.isTemplate = rd->isTemplated() || isa<ClassTemplateSpecializationDecl>(rd);
  bool accessSeen = false;
  for (const Decl* d : rd->decls()) {
    if (d->isImplicit()) continue;
    accessSeen = accessSeen || isa<AccessSpecDecl>(d);
    if (const auto* nd = dyn_cast<NamedDecl>(d); nd && nd->getIdentifier())
      c.memberNames.push_back(nd->getName().str());
    if (const auto* ctor = dyn_cast<CXXConstructorDecl>(d)) {
      if (!ctor->isCopyOrMoveConstructor())
        c.constructors.push_back(usr(ctor));
      else if (ctor->isUserProvided())
        c.userCopy = true;
    }
    if (const auto* ft = dyn_cast<FunctionTemplateDecl>(d))
      if (isa<CXXConstructorDecl>(ft->getTemplatedDecl()))
        c.constructors.push_back(usr(ft->getTemplatedDecl()));
    SourceLocation at = d->getBeginLoc();
    if (at.isInvalid() || at.isMacroID()) continue;
    bool starts = false;
    std::string lead = leadingSpace(sm_, at, &starts);
    if (const auto* as = dyn_cast<AccessSpecDecl>(d)) {
      c.endAccess = as->getAccess() == AS_public      ? facts::Access::Public
                    : as->getAccess() == AS_protected ? facts::Access::Protected
                                                      : facts::Access::Private;
      if (starts) c.accessIndent = lead;
    } else if (starts) {
      c.memberIndent = lead;
    }
  }
  if (head.isInvalid() || brace.isInvalid() || head.isMacroID() || brace.isMacroID()) return;
  if (sm_.getFileID(head) != sm_.getFileID(brace)) return;
  if (!accessSeen) c.accessIndent = leadingSpace(sm_, head);
  leadingSpace(sm_, brace, &c.memberOwnLine);
  c.memberAt = c.memberOwnLine ? lineStart(sm_, brace) : sm_.getFileOffset(brace);
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
  if (!callee ||
      (callee->getNumParams() == 0 && !(rewriteFacts_ && isa<CXXConstructorDecl>(callee))))
    return;
  // Only what the scanned code declares can be a target.
  if (!underRoot(callee->getLocation())) return;
  loc = sm_.getExpansionLoc(loc);
  const FilePlaces::Info& file = places_.at(loc);
  if (!file.underRoot) return;
  facts::SiteFact s;
  s.calleeUsr = usr(callee);
  s.file = file.path;
  s.line = sm_.getPresumedLineNumber(loc);
  s.column = sm_.getPresumedColumnNumber(loc);
  s.via = via;
  if (!seenSites_.emplace(s.file, s.line, s.column, s.calleeUsr + "|" + facts::str(via)).second)
    return;
  if (!functions_.empty()) s.callerUsr = usr(throughInheritance(functions_.back()));
  if (constructed) s.classUsr = usr(constructed);
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
    rparen = written(rparen);
    inMacro = rparen.isMacroID();
    s.rparen = sm_.getFileOffset(sm_.getExpansionLoc(rparen));
  }
  for (unsigned i = 0; i < numArgs && i < s.args.size(); ++i) {
    if (isa<CXXDefaultArgExpr>(args[i])) continue;
    ++s.written;
    SourceRange range = args[i]->getSourceRange();
    SourceLocation b = written(range.getBegin()), e = written(range.getEnd());
    if (b.isMacroID() || e.isMacroID() || b.isInvalid() || e.isInvalid()) {
      inMacro = true;
      continue;
    }
    unsigned begin = sm_.getFileOffset(b);
    unsigned end = sm_.getFileOffset(Lexer::getLocForEndOfToken(e, 0, sm_, ctx_.getLangOpts()));
    if (end > begin) {
      s.args[i].offset = begin;
      s.args[i].length = end - begin;
      s.args[i].insertAt = insertionPoint(b);
    }
  }
  s.inMacro = inMacro;
  for (unsigned i = 0; i < s.args.size(); ++i) {
    const rules::TypeRule* rule = sources_.ruleOf(callee->getParamDecl(i)->getType());
    if (!rule || rule->yields == facts::Yields::State) continue;
    s.args[i].yields = rule->yields;
    s.args[i].shape = sources_.shapeOf(callee->getParamDecl(i)->getType());
  }
  if (s.rparen) recordDigest(sm_.getExpansionLoc(rparen), s.file);
  s.sources = sourcesHere();
}

bool ProgramCollector::VisitCallExpr(CallExpr* e) {
  if (const Expr* callee = e->getCallee()) calleeRefs_.insert(callee->IgnoreParenImpCasts());
  const FunctionDecl* fd = e->getDirectCallee();
  if (!fd) {
    if (rewriteFacts_) dependentCall(e);
    return true;
  }
  edge(fd);
  // A call of a template's instantiation is a call of the template (the code that is edited).
  if (!isa<CXXOperatorCallExpr>(e) && !wrapperVia(fd))
    call(e, fd->getTemplateInstantiationPattern() ? fd->getTemplateInstantiationPattern() : fd);
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
    if (mayReachScope(callee)) seeds.insert(usr(throughInheritance(callee)));
  std::vector<std::pair<std::string, std::string>> edges;
  for (const auto& [caller, callee] : edges_)
    edges.emplace_back(usr(throughInheritance(caller)), usr(throughInheritance(callee)));
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
