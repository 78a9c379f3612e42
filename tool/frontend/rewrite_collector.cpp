#include "frontend/rewrite_collector.h"

#include "support/file_io.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>

#include <cctype>

namespace gridlock::frontend {
namespace {

using namespace clang;

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

RewriteCollector::RewriteCollector(ASTContext& ctx, FilePlaces& places, const ScopeSources& sources,
                                   Usrs& usrs, facts::TuFacts& out)
    : ctx_(ctx),
      sm_(ctx.getSourceManager()),
      places_(places),
      sources_(sources),
      usrs_(usrs),
      out_(out) {}

bool RewriteCollector::underRoot(SourceLocation loc) {
  return loc.isValid() && places_.at(loc).underRoot;
}

bool RewriteCollector::keepsLocal(const VarDecl* vd) const {
  return vd->getIdentifier() && sources_.ruleOf(vd->getType());
}

// Only the rewriter edits: a plain scan's facts (and its cache entries) carry no digest of a
// file that holds no read.
void RewriteCollector::digest(SourceLocation fileLoc, const std::string& path) {
  std::string& digest = out_.digests[path];
  if (!digest.empty()) return;
  llvm::StringRef buffer = sm_.getBufferData(sm_.getFileID(fileLoc));
  digest = support::md5Hex({buffer.data(), buffer.size()});
}

void RewriteCollector::paramList(const FunctionDecl* fd, const std::string& usr) {
  FunctionTypeLoc tl = fd->getFunctionTypeLoc();
  if (!tl) return;
  SourceLocation l = tl.getLParenLoc(), r = tl.getRParenLoc();
  if (l.isInvalid() || r.isInvalid()) return;
  facts::ParamListFact p;
  p.usr = usr;
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
    if (!prm->hasDefaultArg() || d.isInvalid() || d.getBegin().isMacroID() ||
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
  if (const auto* ctor = dyn_cast<CXXConstructorDecl>(fd); ctor && p.definition)
    initializers(ctor, p);
  body(fd, p);
  p.aliases = aliasesAt(fd, fl);
  digest(fl, p.file);
  out_.paramLists.push_back(std::move(p));
}

std::vector<std::pair<std::string, std::string>> RewriteCollector::aliasesAt(const FunctionDecl* fd,
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

void RewriteCollector::initializers(const CXXConstructorDecl* ctor, facts::ParamListFact& p) {
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

void RewriteCollector::body(const FunctionDecl* fd, facts::ParamListFact& p) {
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

void RewriteCollector::classBody(const CXXRecordDecl* rd, const std::string& usr,
                                 const std::string& file) {
  facts::ClassBodyFact c;
  c.usr = usr;
  c.file = file;
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
        c.constructors.push_back(usrs_.of(ctor));
      else if (ctor->isUserProvided())
        c.userCopy = true;
    }
    if (const auto* ft = dyn_cast<FunctionTemplateDecl>(d))
      if (isa<CXXConstructorDecl>(ft->getTemplatedDecl()))
        c.constructors.push_back(usrs_.of(ft->getTemplatedDecl()));
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
  if (!head.isInvalid() && !brace.isInvalid() && !head.isMacroID() && !brace.isMacroID() &&
      sm_.getFileID(head) == sm_.getFileID(brace)) {
    if (!accessSeen) c.accessIndent = leadingSpace(sm_, head);
    leadingSpace(sm_, brace, &c.memberOwnLine);
    c.memberAt = c.memberOwnLine ? lineStart(sm_, brace) : sm_.getFileOffset(brace);
  }
  out_.classBodies.push_back(std::move(c));
}

void RewriteCollector::calleeOf(const CallExpr* e) {
  if (const Expr* callee = e->getCallee()) calleeRefs_.insert(callee->IgnoreParenImpCasts());
}

void RewriteCollector::reference(const DeclRefExpr* e) {
  const auto* fd = dyn_cast<FunctionDecl>(e->getDecl());
  if (!fd || calleeRefs_.count(e) || !underRoot(fd->getLocation())) return;
  if (const FunctionDecl* p = fd->getTemplateInstantiationPattern()) fd = p;
  if (addressTaken_.insert(usrs_.of(fd)).second) out_.addressTaken.push_back(usrs_.of(fd));
}

void RewriteCollector::call(const CallExpr* e, const FunctionDecl* callee, const WalkPlace& at) {
  if (!callee || !underRoot(callee->getLocation())) return;
  SourceLocation begin = e->getBeginLoc(), r = e->getRParenLoc();
  if (begin.isInvalid() || r.isInvalid()) return;
  begin = writtenAt(sm_, begin);
  r = writtenAt(sm_, r);
  SourceLocation loc = sm_.getExpansionLoc(begin);
  const FilePlaces::Info& file = places_.at(loc);
  if (!file.underRoot) return;
  facts::CallFact c;
  c.calleeUsr = usrs_.of(callee);
  if (at.function) c.callerUsr = usrs_.of(throughInheritance(at.function));
  c.file = file.path;
  c.line = sm_.getPresumedLineNumber(loc);
  c.column = sm_.getPresumedColumnNumber(loc);
  c.inMacro = begin.isMacroID() || r.isMacroID();
  c.rparen = sm_.getFileOffset(sm_.getExpansionLoc(r));
  for (const Expr* a : e->arguments()) {
    if (isa<CXXDefaultArgExpr>(a)) continue;
    ++c.written;
    SourceLocation b = writtenAt(sm_, a->getBeginLoc());
    if (b.isMacroID() || b.isInvalid())
      c.inMacro = true;
    else
      c.argBegins.push_back(insertionPoint(sm_, b));
  }
  c.inLambda = at.inLambda;
  c.sources = sourcesAt(at);
  digest(loc, c.file);
  out_.calls.push_back(std::move(c));
}

void RewriteCollector::dependentCall(const CallExpr* e) {
  const Expr* callee = e->getCallee() ? e->getCallee()->IgnoreParenImpCasts() : nullptr;
  DeclarationName name;
  if (const auto* ule = dyn_cast_or_null<OverloadExpr>(callee))
    name = ule->getName();
  else if (const auto* dm = dyn_cast_or_null<CXXDependentScopeMemberExpr>(callee))
    name = dm->getMember();
  else if (const auto* dr = dyn_cast_or_null<DependentScopeDeclRefExpr>(callee))
    name = dr->getDeclName();
  if (!name.isIdentifier() || !name.getAsIdentifierInfo()) return;  // empty, or an operator
  SourceLocation r = writtenAt(sm_, e->getRParenLoc());
  if (r.isInvalid()) return;
  SourceLocation loc = sm_.getExpansionLoc(r);
  const FilePlaces::Info& file = places_.at(loc);
  if (!file.underRoot) return;
  out_.dependentCalls.push_back({name.getAsIdentifierInfo()->getName().str(), file.path,
                                 sm_.getPresumedLineNumber(loc), sm_.getFileOffset(loc)});
}

std::vector<facts::SourceFact> RewriteCollector::sourcesAt(const WalkPlace& at) {
  if (!at.function || at.inLambda) return {};
  const FunctionDecl* fn = at.function;
  auto [it, fresh] = scopeCache_.try_emplace(fn);
  ScopeCache& c = it->second;
  if (fresh) {
    c.params = sources_.facts(sources_.candidates(fn, {}, false));
    std::vector<facts::SourceFact> all = sources_.facts(sources_.candidates(fn, {}, true));
    c.fields.assign(all.begin() + c.params.size(), all.end());
  }
  std::vector<facts::SourceFact> out = c.params;
  if (at.locals && !at.locals->empty()) {
    std::vector<facts::SourceFact> withLocals =
        sources_.facts(sources_.candidates(fn, *at.locals, false));
    out.assign(withLocals.begin(), withLocals.end());
  }
  if (!at.inInitializer) out.insert(out.end(), c.fields.begin(), c.fields.end());
  return out;
}

SourceLocation writtenAt(const SourceManager& sm, SourceLocation l) {
  while (l.isMacroID() && sm.isMacroArgExpansion(l)) l = sm.getImmediateSpellingLoc(l);
  return l;
}

unsigned insertionPoint(const SourceManager& sm, SourceLocation argBegin) {
  llvm::StringRef buffer = sm.getBufferData(sm.getFileID(argBegin));
  unsigned at = sm.getFileOffset(argBegin);
  for (;;) {
    unsigned j = at;
    while (j > 0 && std::isspace(static_cast<unsigned char>(buffer[j - 1]))) --j;
    if (j < 2 || buffer[j - 1] != '/' || buffer[j - 2] != '*') return at;
    size_t open = buffer.substr(0, j - 2).rfind("/*");
    if (open == llvm::StringRef::npos) return at;
    at = static_cast<unsigned>(open);
  }
}

}  // namespace gridlock::frontend
