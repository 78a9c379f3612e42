#include "frontend/read_collector.h"

#include "frontend/guard.h"
#include "frontend/usr.h"
#include "support/file_io.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>

namespace gridlock::frontend {
namespace {

using namespace clang;

llvm::StringRef lastComponent(llvm::StringRef qualified) {
  size_t pos = qualified.rfind("::");
  return pos == llvm::StringRef::npos ? qualified : qualified.substr(pos + 2);
}

// The declaration a template instantiation was made from, so a read names the template.
const FunctionDecl* pattern(const FunctionDecl* fd) {
  if (const FunctionDecl* p = fd->getTemplateInstantiationPattern()) return p;
  return fd;
}

const CXXRecordDecl* enclosingClass(const DeclContext* dc) {
  for (; dc; dc = dc->getParent()) {
    if (const auto* rd = dyn_cast<CXXRecordDecl>(dc)) {
      if (rd->isLambda()) continue;
      if (const CXXRecordDecl* p = rd->getTemplateInstantiationPattern()) return p;
      return rd;
    }
    if (isa<FunctionDecl>(dc)) return nullptr;  // a local class's method stays with its class
  }
  return nullptr;
}

}  // namespace

ReadCollector::ReadCollector(ASTContext& ctx, const rules::RuleSet& rules, FilePlaces& places,
                             const std::vector<MacroExpansion>& macroExpansions,
                             facts::TuFacts& out, const InferredTypes* inferred)
    : ctx_(ctx),
      sm_(ctx.getSourceManager()),
      rules_(rules),
      places_(places),
      sources_(rules, inferred),
      out_(out) {
  for (const auto& pack : rules.packs()) {
    for (const auto& a : pack.accessors)
      if (!a.function.empty()) simpleNames_.insert(lastComponent(a.function));
    for (const auto& g : pack.globals) simpleNames_.insert(lastComponent(g.variable));
    for (const auto& st : pack.setters)
      if (!st.function.empty()) simpleNames_.insert(lastComponent(st.function));
  }
  for (const auto& m : macroExpansions) pendingMacros_.emplace(m.nameLoc.getRawEncoding(), m);
  frames_.emplace_back();  // file scope
}

bool ReadCollector::TraverseDecl(Decl* d) {
  if (!d) return true;
  if (!isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl, ExportDecl>(d)) {
    SourceLocation loc = d->getLocation();
    // Under the root, excluded files too: an exempt helper's fallback still launders reads.
    if (loc.isValid() && !places_.at(loc).underRoot) return true;
  }
  bool frame = false;
  if (isa<FunctionDecl>(d)) {
    frame = true;
  } else if (const auto* vd = dyn_cast<VarDecl>(d)) {
    frame = !isa<ParmVarDecl>(vd) && !vd->isLocalVarDeclOrParm();
  } else if (isa<FieldDecl>(d)) {
    frame = true;
  }
  if (!frame) return Base::TraverseDecl(d);
  frames_.push_back(Frame{d, {}, {}});
  bool ok = Base::TraverseDecl(d);
  frames_.pop_back();
  return ok;
}

bool ReadCollector::TraverseStmt(Stmt* s, DataRecursionQueue*) {
  if (!s) return true;
  // No data recursion: the path from the body to each node is what guards are read from.
  auto& path = frames_.back().path;
  path.push_back(s);
  bool ok = Base::TraverseStmt(s, nullptr);
  path.pop_back();
  return ok;
}

bool ReadCollector::TraverseParmVarDecl(ParmVarDecl* p) {
  const ParmVarDecl* saved = defaultOf_;
  defaultOf_ = p->hasDefaultArg() ? p : nullptr;
  bool ok = Base::TraverseParmVarDecl(p);
  defaultOf_ = saved;
  return ok;
}

const rules::AccessorRule* ReadCollector::functionRule(const NamedDecl* d) {
  if (!d->getIdentifier() || !simpleNames_.contains(d->getName())) return nullptr;
  const Decl* key = d->getCanonicalDecl();
  if (auto it = ruleCache_.find(key); it != ruleCache_.end())
    return static_cast<const rules::AccessorRule*>(it->second);
  const NamedDecl* named = d;
  if (const auto* fd = dyn_cast<FunctionDecl>(d)) named = pattern(fd);
  if (const auto* ft = dyn_cast<FunctionTemplateDecl>(d)) named = ft->getTemplatedDecl();
  const rules::AccessorRule* rule = rules_.function(named->getQualifiedNameAsString());
  ruleCache_[key] = rule;
  return rule;
}

const rules::GlobalRule* ReadCollector::globalRule(const VarDecl* d) {
  if (!d->getIdentifier() || !d->hasGlobalStorage() || !simpleNames_.contains(d->getName()))
    return nullptr;
  const Decl* key = d->getCanonicalDecl();
  if (auto it = ruleCache_.find(key); it != ruleCache_.end())
    return static_cast<const rules::GlobalRule*>(it->second);
  const rules::GlobalRule* rule = rules_.global(d->getQualifiedNameAsString());
  ruleCache_[key] = rule;
  return rule;
}

bool ReadCollector::VisitDeclRefExpr(DeclRefExpr* e) {
  const ValueDecl* d = e->getDecl();
  if (const auto* fd = dyn_cast<FunctionDecl>(d))
    onFunctionRef(fd, e->getLocation());
  else if (const auto* vd = dyn_cast<VarDecl>(d))
    onVariableRef(vd, e->getLocation());
  return true;
}

bool ReadCollector::VisitMemberExpr(MemberExpr* e) {
  const ValueDecl* d = e->getMemberDecl();
  if (const auto* md = dyn_cast<CXXMethodDecl>(d))
    onFunctionRef(md, e->getMemberLoc());
  else if (const auto* vd = dyn_cast<VarDecl>(d))  // static data member through an object
    onVariableRef(vd, e->getMemberLoc());
  return true;
}

// In a template not yet instantiated, a call with dependent arguments is still a lookup
// result; when every candidate is the same rule, it is that read.
void ReadCollector::onOverloadSet(const OverloadExpr* e, SourceLocation loc) {
  const rules::AccessorRule* rule = nullptr;
  const NamedDecl* first = nullptr;
  for (const NamedDecl* d : e->decls()) {
    const rules::AccessorRule* r = functionRule(d->getUnderlyingDecl());
    if (!r || (rule && r != rule)) return;
    rule = r;
    first = d->getUnderlyingDecl();
  }
  if (first) onFunctionRef(first, loc);
}

bool ReadCollector::VisitUnresolvedLookupExpr(UnresolvedLookupExpr* e) {
  onOverloadSet(e, e->getNameLoc());
  return true;
}

bool ReadCollector::VisitUnresolvedMemberExpr(UnresolvedMemberExpr* e) {
  onOverloadSet(e, e->getMemberLoc());
  return true;
}

bool ReadCollector::VisitDeclStmt(DeclStmt* s) {
  Frame& f = frames_.back();
  const Stmt* scope = f.path.size() >= 2 ? f.path[f.path.size() - 2] : nullptr;
  for (const Decl* d : s->decls())
    if (const auto* vd = dyn_cast<VarDecl>(d)) f.locals.emplace_back(vd, scope);
  return true;
}

// The rule-macro name tokens `loc` was expanded from, innermost first. Through a macro
// argument (`CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &r))`) the chain goes on from where the
// argument's tokens were expanded, so a rule macro written in another macro's argument is
// found too.
std::vector<unsigned> ReadCollector::invocations(SourceLocation loc) const {
  std::vector<unsigned> out;
  while (loc.isMacroID()) {
    if (sm_.isMacroArgExpansion(loc)) {
      loc = sm_.getImmediateSpellingLoc(loc);
      continue;
    }
    SourceLocation at = sm_.getImmediateExpansionRange(loc).getBegin();
    out.push_back(at.getRawEncoding());
    loc = at;
  }
  return out;
}

bool ReadCollector::VisitExpr(Expr* e) {
  if (pendingMacros_.empty() || !e->getBeginLoc().isMacroID()) return true;
  // The outermost expression that lies within the expansion of a rule macro is that read;
  // one that only starts there (`MPI_COMM_WORLD == comm`) is more than the read, and
  // rewriting it would drop the rest: its end must come from the same expansion.
  std::vector<unsigned> begins = invocations(e->getBeginLoc());
  if (begins.empty()) return true;
  std::vector<unsigned> ends = invocations(e->getEndLoc());
  for (unsigned at : begins) {
    auto range = pendingMacros_.equal_range(at);
    if (range.first == range.second) continue;
    if (std::find(ends.begin(), ends.end(), at) == ends.end()) return true;
    std::vector<MacroExpansion> claimed;
    for (auto it = range.first; it != range.second; ++it) claimed.push_back(it->second);
    pendingMacros_.erase(range.first, range.second);
    for (const auto& m : claimed)
      record({m.rule->macro, m.rule->kind, m.rule->group, m.rule->yields, m.rule->pack}, m.nameLoc);
    return true;
  }
  return true;
}

void ReadCollector::finish() {
  frames_.resize(1);
  frames_.back().path.clear();
  for (const auto& [site, m] : pendingMacros_)
    record({m.rule->macro, m.rule->kind, m.rule->group, m.rule->yields, m.rule->pack}, m.nameLoc);
  pendingMacros_.clear();
  recordAllows();
}

void ReadCollector::onFunctionRef(const NamedDecl* d, SourceLocation loc) {
  if (const rules::AccessorRule* r = functionRule(d)) {
    record({r->function, r->kind, r->group, r->yields, r->pack}, loc);
    return;
  }
  // A setter's reference (its call, or the function handed on) writes the state.
  if (!d->getIdentifier() || !simpleNames_.contains(d->getName())) return;
  const NamedDecl* named = d;
  if (const auto* fd = dyn_cast<FunctionDecl>(d)) named = pattern(fd);
  if (const rules::SetterRule* st = rules_.setter(named->getQualifiedNameAsString()))
    record({st->function, facts::ReadKind::GlobalWrite, "", facts::Yields::State, st->pack}, loc);
}

void ReadCollector::onVariableRef(const VarDecl* d, SourceLocation loc) {
  if (const rules::GlobalRule* r = globalRule(d))
    record(
        {r->variable,
         accessOf() == Access::Write ? facts::ReadKind::GlobalWrite : facts::ReadKind::GlobalState,
         "", facts::Yields::State, r->pack, r},
        loc);
}

// How the reference on top of the path is used. Written: assigned to, incremented or
// decremented, or a field or element of it is (`cfg.stage = 2`, `cfg.ranks[0]++`). Changed (a
// read that may also write): a non-const method is called on it or on one of its fields, or its
// address is taken other than as a pointer to const (`f(&cfg)` with `f(Cfg*)`): the callee may
// read it, so it is a read. `throughCall`: the reference is a function's, and what its call
// returns is the value asked about (`Env::Instance().Init(...)`).
ReadCollector::Access ReadCollector::accessOf(bool throughCall) const {
  const auto& path = frames_.back().path;
  if (path.empty()) return Access::Read;
  const Stmt* child = path.back();
  for (size_t i = path.size() - 1; i-- > 0;) {
    const Stmt* p = path[i];
    if (isa<ParenExpr>(p)) {
      child = p;
      continue;
    }
    if (const auto* cast = dyn_cast<ImplicitCastExpr>(p)) {
      if (cast->getCastKind() == CK_LValueToRValue) return Access::Read;
      child = p;
      continue;
    }
    if (const auto* call = dyn_cast<CallExpr>(p);
        throughCall && call && call->getCallee() == child) {
      throughCall = false;  // only the accessor's own call
      child = p;
      continue;
    }
    if (const auto* m = dyn_cast<MemberExpr>(p); m && !m->isArrow() && m->getBase() == child) {
      child = p;
      continue;
    }
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(p); a && a->getBase() == child) {
      child = p;
      continue;
    }
    if (const auto* call = dyn_cast<CXXMemberCallExpr>(p)) {
      const CXXMethodDecl* method = call->getMethodDecl();
      // Reached through the callee (`cfg.reset()`: the MemberExpr naming the method) or with
      // the object itself as the child.
      bool changes = method && !method->isConst() && !method->isStatic() &&
                     (call->getImplicitObjectArgument() == child || call->getCallee() == child);
      return changes ? Access::Change : Access::Read;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(p))
      return b->isAssignmentOp() && b->getLHS() == child ? Access::Write : Access::Read;
    if (const auto* u = dyn_cast<UnaryOperator>(p)) {
      if (u->getOpcode() != UO_AddrOf)
        return u->isIncrementDecrementOp() ? Access::Write : Access::Read;
      if (throughCall) return Access::Read;  // `&accessor`: a function's address changes nothing
      // `&g` may be written through unless it is at once made a pointer to const.
      const auto* use = i > 0 ? dyn_cast<ImplicitCastExpr>(path[i - 1]) : nullptr;
      return use && use->getType()->isPointerType() &&
                     use->getType()->getPointeeType().isConstQualified()
                 ? Access::Read
                 : Access::Change;
    }
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(p))
      return op->isAssignmentOp() && op->getNumArgs() > 0 && op->getArg(0) == child ? Access::Write
                                                                                    : Access::Read;
    return Access::Read;
  }
  return Access::Read;
}

// Where the read is spelled: inside a macro definition it is reported at the expansion site
// and names the macro; a macro argument is reported where the argument was written.
ReadCollector::Place ReadCollector::placeOf(SourceLocation loc) const {
  Place p;
  SourceLocation walk = loc;
  while (walk.isMacroID()) {
    if (sm_.isMacroArgExpansion(walk)) {
      walk = sm_.getImmediateSpellingLoc(walk);
      continue;
    }
    p.macro = Lexer::getImmediateMacroName(walk, sm_, ctx_.getLangOpts()).str();
    break;
  }
  p.report = p.macro ? sm_.getExpansionLoc(loc) : walk;
  p.spelled = sm_.getSpellingLoc(loc);
  return p;
}

void ReadCollector::record(const Target& t, SourceLocation loc) {
  const Place place = placeOf(loc);
  const FilePlaces::Info& file = places_.at(place.report);
  if (!file.underRoot || file.perPack.empty()) return;
  bool exempt = file.perPack[t.pack] == rules::Placement::Out;
  PresumedLoc at = sm_.getPresumedLoc(place.report, /*UseLineDirectives=*/false);
  PresumedLoc sp = sm_.getPresumedLoc(place.spelled, false);
  if (at.isInvalid()) return;
  std::string spelling = sp.isInvalid()
                             ? std::string()
                             : places_.at(place.spelled).path + ":" + std::to_string(sp.getLine()) +
                                   ":" + std::to_string(sp.getColumn());
  if (!seen_.emplace(file.path, at.getLine(), at.getColumn(), t.name, spelling).second) return;

  facts::Read r;
  r.file = file.path;
  r.line = at.getLine();
  r.column = at.getColumn();
  r.name = t.name;
  r.kind = t.kind;
  r.group = t.group;
  r.yields = t.yields;
  r.macro = place.macro;
  r.spelling = spelling;
  r.edge = file.perPack[t.pack] == rules::Placement::Edge;
  setEnclosing(r);
  setGuard(r, t);
  if (exempt) {
    if (r.guardParam >= 0) out_.exemptReads.push_back(std::move(r));
    return;
  }
  setRange(r, loc);
  rewriteFacts(r);
  r.suppressed = suppression(sm_.getExpansionLoc(place.report), r);
  setHint(r, t);
  out_.reads.push_back(std::move(r));
}

void ReadCollector::setEnclosing(facts::Read& r) const {
  const Frame& f = frames_.back();
  if (!f.decl) return;
  if (const auto* fd = dyn_cast<FunctionDecl>(f.decl)) {
    r.enclosing = pattern(fd)->getQualifiedNameAsString();
    r.enclosingUsr = usrOf(throughInheritance(pattern(fd)));
    if (const CXXRecordDecl* rd = enclosingClass(fd->getDeclContext()))
      r.enclosingClass = rd->getQualifiedNameAsString();
  } else if (const auto* nd = dyn_cast<NamedDecl>(f.decl)) {
    r.enclosing = nd->getQualifiedNameAsString();
    if (const CXXRecordDecl* rd = enclosingClass(nd->getDeclContext()))
      r.enclosingClass = rd->getQualifiedNameAsString();
  }
}

// The parameter a read depends on: the one its fallback tests, or the one whose default
// argument it is. Calls that leave that parameter out launder the read.
void ReadCollector::setGuard(facts::Read& r, const Target& t) {
  if (t.kind == facts::ReadKind::GlobalWrite) return;
  const Frame& f = frames_.back();
  const ValueDecl* tested = nullptr;
  auto holdsGroup = [&](QualType type) {
    const rules::TypeRule* y = sources_.ruleOf(type);
    return y && y->yields != facts::Yields::State;
  };
  std::vector<ParamTestDecl> tests;
  if (!f.path.empty() && isFallback(f.path, ctx_, holdsGroup, &tested, &tests))
    r.guard = facts::Guard::Fallback;
  const auto* param = dyn_cast_or_null<ParmVarDecl>(tested);
  if (defaultOf_) {
    param = defaultOf_;
    r.inDefaultArgument = true;
  }
  if (param)
    if (const auto* fn = dyn_cast<FunctionDecl>(param->getDeclContext())) {
      r.guardFunction = usrOf(throughInheritance(fn));
      r.guardParam = static_cast<int>(param->getFunctionScopeIndex());
      // The tests of the function's other parameters the fallback runs under, where the
      // function only reads them: a call whose argument fails one cannot run it.
      if (r.guard == facts::Guard::Fallback && !defaultOf_)
        for (const ParamTestDecl& t : tests) {
          facts::ParamTest p{static_cast<int>(t.param->getFunctionScopeIndex()), t.expect};
          if (t.param == param || t.param->getDeclContext() != fn ||
              !onlyRead(fn->getBody(), t.param) ||
              std::find(r.guardTests.begin(), r.guardTests.end(), p) != r.guardTests.end())
            continue;
          r.guardTests.push_back(p);
        }
    }
  if (tested && r.guard == facts::Guard::Fallback) r.holder = tested->getName().str();
}

void ReadCollector::setHint(facts::Read& r, const Target& t) {
  if (t.kind == facts::ReadKind::GlobalWrite) return;  // a write has no fix
  if (r.edge || r.suppressed) {
    r.hint.fix = facts::Hint::None;
    return;
  }
  r.hint = hintFor(t);
  if (r.guard == facts::Guard::Fallback) r.hint.fix = facts::Hint::Require;
}

void ReadCollector::setRange(facts::Read& r, SourceLocation loc) {
  const auto& path = frames_.back().path;
  const Stmt* node = path.empty() ? nullptr : path.back();
  // A called accessor is read by its whole call: `get_group()`, not `get_group`.
  if (node && path.size() >= 3)
    if (const auto* call = dyn_cast<CallExpr>(path[path.size() - 3]))
      if (call->getCallee()->IgnoreParenImpCasts() == node) node = call;
  if (node && path.size() >= 2)
    if (const auto* call = dyn_cast<CallExpr>(path[path.size() - 2]))
      if (call->getCallee() == node) node = call;
  SourceRange range = node ? node->getSourceRange() : SourceRange(loc, loc);
  // Written in a macro argument: where it is written; spelled in a macro body: the whole
  // invocation.
  CharSourceRange chars =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(range), sm_, ctx_.getLangOpts());
  if (chars.isInvalid()) chars = sm_.getExpansionRange(range);
  SourceLocation end = chars.isTokenRange()
                           ? Lexer::getLocForEndOfToken(chars.getEnd(), 0, sm_, ctx_.getLangOpts())
                           : chars.getEnd();
  FileID fid = sm_.getFileID(chars.getBegin());
  if (fid != sm_.getFileID(end)) return;
  if (node)
    if (const auto* e = dyn_cast<Expr>(node)) {
      // Named but not called: `&accessor`, an accessor handed on as a callback.
      const ValueDecl* ref = nullptr;
      if (const auto* d = dyn_cast<DeclRefExpr>(e)) ref = d->getDecl();
      if (const auto* m = dyn_cast<MemberExpr>(e)) ref = m->getMemberDecl();
      r.called = !(ref && isa<FunctionDecl>(ref)) && !isa<OverloadExpr>(e);
      if (!e->getType().isNull() && !e->isTypeDependent()) {
        PrintingPolicy policy(ctx_.getLangOpts());
        policy.SuppressTagKeyword = true;
        r.type = TypeName::getFullyQualifiedName(e->getType().getUnqualifiedType(), ctx_, policy,
                                                 /*WithGlobalNsPrefix=*/false);
      }
    }
  if (const auto* call = dyn_cast_or_null<CallExpr>(node)) setArguments(r, call);
  r.offset = sm_.getFileOffset(chars.getBegin());
  r.length = sm_.getFileOffset(end) - r.offset;
  r.rangeLine = sm_.getLineNumber(fid, r.offset);
  r.rangeColumn = sm_.getColumnNumber(fid, r.offset);
  r.endLine = sm_.getLineNumber(fid, r.offset + r.length);
  r.endColumn = sm_.getColumnNumber(fid, r.offset + r.length);
  std::string& digest = out_.digests[r.file];
  if (digest.empty()) {
    llvm::StringRef buffer = sm_.getBufferData(fid);
    digest = support::md5Hex({buffer.data(), buffer.size()});
  }
}

// A called accessor's arguments as written (`RankOf(dp, i++)`): a replacement must carry them.
// One the file cannot show (spelled in a macro) is written "", which no spelling accounts for.
void ReadCollector::setArguments(facts::Read& r, const CallExpr* call) {
  for (const Expr* a : call->arguments()) {
    if (isa<CXXDefaultArgExpr>(a)) break;
    CharSourceRange chars = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(a->getSourceRange()), sm_, ctx_.getLangOpts());
    r.arguments.push_back(chars.isInvalid()
                              ? std::string()
                              : Lexer::getSourceText(chars, sm_, ctx_.getLangOpts()).str());
  }
}

// What the rewriter needs beyond the fix hint: where in the function the read sits and how
// its fallback is evaluated.
void ReadCollector::rewriteFacts(facts::Read& r) {
  const Frame& f = frames_.back();
  // A global's own reference; an accessor's call, whose result is what may change.
  bool global = r.kind == facts::ReadKind::GlobalState || r.kind == facts::ReadKind::GlobalWrite;
  r.mutated =
      r.kind == facts::ReadKind::GlobalWrite || accessOf(/*throughCall=*/!global) != Access::Read;
  for (const Stmt* s : f.path)
    if (isa<LambdaExpr>(s)) r.inLambda = true;
  if (const auto* md = dyn_cast_or_null<CXXMethodDecl>(f.decl))
    if (md->getParent()->isLambda()) r.inLambda = true;
  if (const auto* ctor = dyn_cast_or_null<CXXConstructorDecl>(f.decl))
    if (!f.path.empty() && f.path.front() != ctor->getBody()) r.inInitializer = true;
  if (r.guard == facts::Guard::Fallback) {
    // The nearest construct that makes it a fallback: `value_or(read)` evaluates the read
    // whether or not the group is there.
    for (size_t i = f.path.size(); i-- > 0;) {
      const Stmt* s = f.path[i];
      if (isa<ConditionalOperator, BinaryConditionalOperator, IfStmt>(s)) break;
      if (const auto* call = dyn_cast<CXXMemberCallExpr>(s)) {
        const CXXMethodDecl* m = call->getMethodDecl();
        if (m && m->getIdentifier() && m->getName() == "value_or") {
          r.eagerFallback = true;
          break;
        }
      }
    }
  }
}

facts::FixHint ReadCollector::hintFor(const Target& t) {
  using facts::Hint;
  facts::FixHint hint;
  hint.fix = Hint::Thread;
  const Frame& f = frames_.back();
  const FunctionDecl* fn = f.decl ? dyn_cast<FunctionDecl>(f.decl) : nullptr;
  if (!fn) return hint;
  std::vector<const VarDecl*> locals;
  for (const auto& [vd, scope] : f.locals) {
    if (scope && std::find(f.path.begin(), f.path.end(), scope) == f.path.end()) continue;
    // Not the variable whose own initializer holds the read (`auto pgs = shim();`).
    if (const Expr* init = vd->getInit();
        init && std::find(f.path.begin(), f.path.end(), init) != f.path.end())
      continue;
    locals.push_back(vd);
  }
  if (t.kind == facts::ReadKind::GlobalState) {
    // Per-model state: the field of the metadata this function can see.
    if (!t.global || t.global->field.empty()) return hint;
    hint.source =
        sources_.pickState(sources_.candidates(fn, locals), t.global->type, t.global->field);
    hint.sourcePointer = false;
  } else {
    hint.source = sources_.pick(sources_.candidates(fn, locals), t.group, t.yields,
                                &hint.sourcePointer, &hint.sourceEnv);
  }
  if (!hint.source.empty()) hint.fix = Hint::Substitute;
  return hint;
}

// The first line of the statement holding the read (a statement of a block, or the
// declaration being initialised), when it starts above the read in the same file: an allow
// above a statement spanning lines covers it.
unsigned ReadCollector::statementLine(SourceLocation fileLoc) const {
  unsigned line = sm_.getSpellingLineNumber(fileLoc);
  const Frame& f = frames_.back();
  SourceLocation begin;
  for (size_t i = f.path.size(); i-- > 1;)
    if (isa<CompoundStmt>(f.path[i - 1])) {
      begin = f.path[i]->getBeginLoc();
      break;
    }
  if (begin.isInvalid() && f.decl && !isa<FunctionDecl>(f.decl)) begin = f.decl->getBeginLoc();
  if (begin.isInvalid()) return line;
  begin = sm_.getExpansionLoc(begin);
  if (sm_.getFileID(begin) != sm_.getFileID(fileLoc)) return line;
  return std::min(line, sm_.getSpellingLineNumber(begin));
}

// Whether `name` in an allow's list names something of the packs: a group, or a rule's name
// (qualified, or its last component).
bool ReadCollector::knownAllowName(const std::string& name) const {
  for (const auto& pack : rules_.packs()) {
    for (const auto& a : pack.accessors)
      if (name == a.group || name == a.macro ||
          (!a.function.empty() && (name == a.function || name == lastComponent(a.function))))
        return true;
    for (const auto& g : pack.globals)
      if (name == g.variable || name == lastComponent(g.variable)) return true;
  }
  return false;
}

// The file's allow comments, read once; its malformed ones, and names no pack knows, are
// reported once per file and line.
const FileSuppressions& ReadCollector::suppressionsOf(FileID fid) {
  auto it = suppressions_.find(fid);
  if (it != suppressions_.end()) return it->second;
  FileSuppressions s = findSuppressions(sm_.getBufferData(fid));
  for (auto& a : s.allows)
    for (const auto& n : a.names)
      if (!knownAllowName(n))
        s.bad.push_back({a.line, a.column, a.text,
                         "allow names '" + n +
                             "', which is no group, accessor, macro or global of the rule packs: "
                             "it covers no read of that name"});
  const FilePlaces::Info& file = places_.of(fid);
  for (const auto& b : s.bad)
    if (badSuppressionSeen_.emplace(file.path, b.line).second)
      out_.badSuppressions.push_back({file.path, b.line, b.column, b.text, b.problem});
  return suppressions_.emplace(fid, std::move(s)).first->second;
}

// The reason of the allow comment that covers the read (suppressions.h), if any.
std::optional<std::string> ReadCollector::suppression(SourceLocation fileLoc,
                                                      const facts::Read& r) {
  const FileSuppressions& s = suppressionsOf(sm_.getFileID(fileLoc));
  if (s.allows.empty()) return std::nullopt;
  const AllowComment* a = coveringAllow(s, sm_.getSpellingLineNumber(fileLoc),
                                        statementLine(fileLoc), {r.group, r.name});
  if (!a) return std::nullopt;
  std::vector<bool>& used = allowUsed_[sm_.getFileID(fileLoc)];
  used.resize(s.allows.size());
  used[static_cast<size_t>(a - s.allows.data())] = true;
  return a->reason;
}

// Each well-formed allow of the files of the packs' scope this unit read, and whether a read of
// it fell under one: the files that held reads (their allows read already), and every other
// file of the scope whose text mentions `gridlock:` (an allow whose reads are gone). An allow
// naming a name no pack knows is a bad suppression instead. A file included twice is one.
void ReadCollector::recordAllows() {
  std::map<std::tuple<std::string, unsigned, unsigned>, facts::AllowFact> found;
  auto add = [&](FileID fid, const FileSuppressions& s, const std::vector<bool>* used) {
    const FilePlaces::Info& file = places_.of(fid);
    if (!file.interest || !file.underRoot) return;
    for (size_t i = 0; i < s.allows.size(); ++i) {
      const AllowComment& a = s.allows[i];
      if (!std::all_of(a.names.begin(), a.names.end(),
                       [&](const std::string& n) { return knownAllowName(n); }))
        continue;
      auto it = found
                    .try_emplace({file.path, a.line, a.column},
                                 facts::AllowFact{file.path, a.line, a.column, a.text, false,
                                                  fid == sm_.getMainFileID()})
                    .first;
      if (used && i < used->size() && (*used)[i]) it->second.covers = true;
    }
  };
  for (const auto& [fid, s] : suppressions_) {
    auto used = allowUsed_.find(fid);
    add(fid, s, used == allowUsed_.end() ? nullptr : &used->second);
  }
  for (unsigned i = 1, n = sm_.local_sloc_entry_size(); i < n; ++i) {
    const SrcMgr::SLocEntry& e = sm_.getLocalSLocEntry(i);
    if (!e.isFile() || !e.getFile().getContentCache().OrigEntry) continue;  // a macro, a buffer
    FileID fid = sm_.getFileID(SourceLocation::getFromRawEncoding(e.getOffset()));
    if (suppressions_.count(fid)) continue;
    const FilePlaces::Info& file = places_.of(fid);
    if (!file.interest || !file.underRoot) continue;
    StringRef text = sm_.getBufferData(fid);
    if (text.find("gridlock:") == StringRef::npos) continue;
    add(fid, findSuppressions(text), nullptr);
  }
  for (auto& [at, a] : found) out_.allows.push_back(std::move(a));
}

}  // namespace gridlock::frontend
