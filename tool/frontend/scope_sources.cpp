#include "frontend/scope_sources.h"

#include "rules/source_pick.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Type.h>

#include <set>

namespace gridlock::frontend {
namespace {

using namespace clang;

bool isWrapper(const CXXRecordDecl* rd) {
  static const std::set<std::string> wrappers = {"std::shared_ptr", "std::unique_ptr",
                                                 "std::optional", "std::weak_ptr",
                                                 "std::reference_wrapper"};
  return rd && wrappers.count(rd->getQualifiedNameAsString()) > 0;
}

// "a::b::c" -> {"a", "b", "c"}; a leading "::" is dropped.
std::vector<std::string> components(const std::string& qualified) {
  std::vector<std::string> out;
  size_t from = qualified.rfind("::", 0) == 0 ? 2 : 0;
  for (size_t pos; (pos = qualified.find("::", from)) != std::string::npos; from = pos + 2)
    out.push_back(qualified.substr(from, pos - from));
  out.push_back(qualified.substr(from));
  return out;
}

// What `name` names in `dc` (lookup sees through inline namespaces and extern "C").
DeclContext::lookup_result lookupIn(ASTContext& ctx, const DeclContext* dc,
                                    const std::string& name) {
  auto id = ctx.Idents.find(name);  // a name the unit never spelled is declared nowhere
  if (id == ctx.Idents.end()) return {};
  return dc->lookup(DeclarationName(id->second));
}

// The declarations a qualified rule name names: a qualified lookup from the translation
// unit through namespaces (aliases and anonymous ones too), classes and class templates.
std::vector<const NamedDecl*> lookupQualified(ASTContext& ctx, const std::string& qualified) {
  std::vector<std::string> parts = components(qualified);
  std::vector<const DeclContext*> contexts{ctx.getTranslationUnitDecl()};
  for (size_t i = 0; i + 1 < parts.size() && !contexts.empty(); ++i) {
    std::vector<const DeclContext*> next;
    for (const DeclContext* dc : contexts) {
      if (parts[i] == "(anonymous namespace)") {
        const NamespaceDecl* anon = nullptr;
        if (const auto* tu = dyn_cast<TranslationUnitDecl>(dc)) anon = tu->getAnonymousNamespace();
        if (const auto* ns = dyn_cast<NamespaceDecl>(dc)) anon = ns->getAnonymousNamespace();
        if (anon) next.push_back(anon);
        continue;
      }
      for (const NamedDecl* d : lookupIn(ctx, dc, parts[i])) {
        if (const auto* ns = dyn_cast<NamespaceDecl>(d)) next.push_back(ns);
        if (const auto* alias = dyn_cast<NamespaceAliasDecl>(d))
          if (const NamespaceDecl* ns = alias->getNamespace()) next.push_back(ns);
        const CXXRecordDecl* rd = dyn_cast<CXXRecordDecl>(d);
        if (const auto* ct = dyn_cast<ClassTemplateDecl>(d)) rd = ct->getTemplatedDecl();
        if (rd && rd->getDefinition()) next.push_back(rd->getDefinition());
      }
    }
    contexts = std::move(next);
  }
  std::vector<const NamedDecl*> out;
  for (const DeclContext* dc : contexts)
    for (const NamedDecl* d : lookupIn(ctx, dc, parts.back())) out.push_back(d);
  return out;
}

// The qualified name of the type a value of `t` holds, looking through references, pointers,
// smart pointers and std::optional: a class, or a typedef of a builtin (`typedef int
// MPI_Comm`); "" when it is neither, or a standard type (a std::string is no group).
std::string heldTypeName(QualType t) {
  std::string typedefName;
  for (int depth = 0; depth < 8 && !t.isNull() && !t->isDependentType(); ++depth) {
    t = t.getNonReferenceType().getUnqualifiedType();
    if (const auto* td = t->getAs<TypedefType>())
      typedefName = td->getDecl()->getQualifiedNameAsString();
    if (t->isPointerType()) {
      t = t->getPointeeType();
      continue;
    }
    const CXXRecordDecl* rd = t->getAsCXXRecordDecl();
    if (!rd) return t->isBuiltinType() ? typedefName : "";
    if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rd);
        spec && isWrapper(rd) && spec->getTemplateArgs().size() > 0 &&
        spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      t = spec->getTemplateArgs()[0].getAsType();
      typedefName.clear();
      continue;
    }
    std::string name = rd->getQualifiedNameAsString();
    return name.rfind("std::", 0) == 0 ? "" : name;
  }
  return "";
}

}  // namespace

DeclaredRules declaredRules(ASTContext& ctx, const rules::RuleSet& rules) {
  using facts::Yields;
  DeclaredRules out;
  std::set<std::string> seen;
  for (const auto& pack : rules.packs()) {
    for (const auto& a : pack.accessors) {
      if (a.function.empty()) continue;
      for (const NamedDecl* d : lookupQualified(ctx, a.function)) {
        const FunctionDecl* fd = dyn_cast<FunctionDecl>(d);
        if (const auto* ft = dyn_cast<FunctionTemplateDecl>(d)) fd = ft->getTemplatedDecl();
        if (!fd) continue;
        seen.insert(rules::RuleSet::seenKey(a));
        if (a.yields != Yields::Group && a.yields != Yields::Collection) continue;
        std::string type = heldTypeName(fd->getReturnType());
        if (!type.empty() && !rules.type(type))
          out.inferred.emplace(type, rules::TypeRule{type, a.yields, "", {}, false});
      }
    }
    for (const auto& g : pack.globals)
      for (const NamedDecl* d : lookupQualified(ctx, g.variable))
        if (isa<VarDecl, VarTemplateDecl>(d)) seen.insert(rules::RuleSet::seenKey(g));
    for (const auto& st : pack.setters)
      if (!st.function.empty())
        for (const NamedDecl* d : lookupQualified(ctx, st.function))
          if (isa<FunctionDecl, FunctionTemplateDecl>(d)) seen.insert(rules::RuleSet::seenKey(st));
    for (const auto& t : pack.types)
      for (const NamedDecl* d : lookupQualified(ctx, t.type))
        if (isa<TypeDecl, ClassTemplateDecl, TypeAliasTemplateDecl>(d))
          seen.insert(rules::RuleSet::seenKey(t));
  }
  out.seen.assign(seen.begin(), seen.end());
  return out;
}

const rules::TypeRule* ScopeSources::typeRule(const std::string& name) const {
  if (const rules::TypeRule* r = rules_.type(name)) return r;
  if (!inferred_) return nullptr;
  auto it = inferred_->find(name);
  return it == inferred_->end() ? nullptr : &it->second;
}

const rules::TypeRule* ScopeSources::ruleOf(QualType t, bool* pointerLike) const {
  for (int depth = 0; depth < 8 && !t.isNull(); ++depth) {
    t = t.getNonReferenceType().getUnqualifiedType();
    // A typedef may itself be the rule (MPI_Comm is a pointer typedef).
    for (QualType s = t; const auto* td = s->getAs<TypedefType>();
         s = td->getDecl()->getUnderlyingType()) {
      if (const rules::TypeRule* y = typeRule(td->getDecl()->getQualifiedNameAsString())) return y;
    }
    if (t->isPointerType()) {
      if (pointerLike) *pointerLike = true;
      t = t->getPointeeType();
      continue;
    }
    const CXXRecordDecl* rd = t->getAsCXXRecordDecl();
    if (!rd) return nullptr;
    if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rd);
        spec && isWrapper(rd) && spec->getTemplateArgs().size() > 0 &&
        spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      if (pointerLike) *pointerLike = true;
      t = spec->getTemplateArgs()[0].getAsType();
      continue;
    }
    return typeRule(rd->getQualifiedNameAsString());
  }
  return nullptr;
}

std::vector<SourceCandidate> ScopeSources::candidates(const FunctionDecl* fn,
                                                      const std::vector<const VarDecl*>& locals,
                                                      bool fields) const {
  std::vector<SourceCandidate> out;
  auto add = [&](const ValueDecl* d, std::string spelling) {
    bool ptr = false;
    if (const rules::TypeRule* y = ruleOf(d->getType(), &ptr))
      out.push_back({d, std::move(spelling), y, ptr});
  };
  if (!fn) return out;
  for (const ParmVarDecl* p : fn->parameters())
    if (p->getIdentifier()) add(p, p->getName().str());
  for (const VarDecl* v : locals)
    if (v->getIdentifier()) add(v, v->getName().str());
  const auto* md = dyn_cast<CXXMethodDecl>(fn);
  if (!md || md->isStatic() || !fields) return out;
  // Fields of the class and of every base reachable from it (protected/public for bases).
  std::vector<const CXXRecordDecl*> work{md->getParent()};
  std::set<const CXXRecordDecl*> seen;
  while (!work.empty()) {
    const CXXRecordDecl* rd = work.back();
    work.pop_back();
    if (!rd || !rd->hasDefinition() || !seen.insert(rd->getDefinition()).second) continue;
    rd = rd->getDefinition();
    for (const FieldDecl* f : rd->fields())
      if (f->getIdentifier() && (rd == md->getParent() || f->getAccess() != AS_private))
        add(f, "this->" + f->getName().str());
    for (const CXXBaseSpecifier& b : rd->bases()) work.push_back(b.getType()->getAsCXXRecordDecl());
  }
  return out;
}

facts::Shape ScopeSources::shapeOf(QualType t) const {
  using facts::Holder;
  if (t.isNull()) return {};
  t = t.getNonReferenceType().getUnqualifiedType();
  for (QualType s = t; const auto* td = s->getAs<TypedefType>();
       s = td->getDecl()->getUnderlyingType())
    if (typeRule(td->getDecl()->getQualifiedNameAsString())) return {};
  if (t->isPointerType()) return {Holder::Pointer};
  const CXXRecordDecl* rd = t->getAsCXXRecordDecl();
  if (!rd || !isWrapper(rd)) return {};
  std::string name = rd->getQualifiedNameAsString();
  if (name == "std::unique_ptr") return {Holder::Unique};
  if (name != "std::optional") return {Holder::Smart};
  const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rd);
  if (!spec || spec->getTemplateArgs().size() == 0 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  return {shapeOf(spec->getTemplateArgs()[0].getAsType()).holder, true};
}

std::vector<facts::SourceFact> ScopeSources::facts(
    const std::vector<SourceCandidate>& cands) const {
  std::vector<facts::SourceFact> out;
  for (const auto& c : cands)
    if (c.type->yields == facts::Yields::State)  // its "group" is the state type
      out.push_back({c.spelling,
                     c.type->yields,
                     c.type->type,
                     c.decl->getName().str(),
                     shapeOf(c.decl->getType()),
                     {},
                     false});
    else
      out.push_back({c.spelling, c.type->yields, c.type->group, c.decl->getName().str(),
                     shapeOf(c.decl->getType()), c.type->groups, c.type->env});
  return out;
}

std::string ScopeSources::pick(const std::vector<SourceCandidate>& cands, const std::string& group,
                               facts::Yields yields, bool* pointer, bool* env) const {
  std::vector<facts::SourceFact> sources = facts(cands);
  bool field = false;
  const facts::SourceFact* s = rules::pickSource(sources, group, yields, &field);
  if (!s) return "";
  if (s->env && field) {
    // The env itself: the rewriter spells the group or value with its method.
    if (pointer) *pointer = s->shape != facts::Shape{};
    if (env) *env = true;
    return s->spelling;
  }
  if (pointer) *pointer = field || s->shape != facts::Shape{};
  return rules::spellPicked(*s, field, group);
}

std::string ScopeSources::pickState(const std::vector<SourceCandidate>& cands,
                                    const std::string& stateType, const std::string& field) const {
  for (const auto& c : cands)
    if (c.type->yields == facts::Yields::State && (stateType.empty() || c.type->type == stateType))
      return c.spelling + (c.pointerLike ? "->" : ".") + field;
  return "";
}

}  // namespace gridlock::frontend
