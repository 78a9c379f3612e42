#include "frontend/scope_sources.h"

#include "rules/source_pick.h"

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

}  // namespace

const rules::TypeRule* ScopeSources::ruleOf(QualType t, bool* pointerLike) const {
  for (int depth = 0; depth < 8 && !t.isNull(); ++depth) {
    t = t.getNonReferenceType().getUnqualifiedType();
    // A typedef may itself be the rule (MPI_Comm is a pointer typedef).
    for (QualType s = t; const auto* td = s->getAs<TypedefType>();
         s = td->getDecl()->getUnderlyingType()) {
      if (const rules::TypeRule* y = rules_.type(td->getDecl()->getQualifiedNameAsString()))
        return y;
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
    return rules_.type(rd->getQualifiedNameAsString());
  }
  return nullptr;
}

std::vector<SourceCandidate> ScopeSources::candidates(
    const FunctionDecl* fn, const std::vector<const VarDecl*>& locals, bool fields) const {
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
    for (const CXXBaseSpecifier& b : rd->bases())
      work.push_back(b.getType()->getAsCXXRecordDecl());
  }
  return out;
}

facts::Shape ScopeSources::shapeOf(QualType t) const {
  using facts::Holder;
  if (t.isNull()) return {};
  t = t.getNonReferenceType().getUnqualifiedType();
  for (QualType s = t; const auto* td = s->getAs<TypedefType>();
       s = td->getDecl()->getUnderlyingType())
    if (rules_.type(td->getDecl()->getQualifiedNameAsString())) return {};
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

std::vector<facts::SourceFact> ScopeSources::facts(const std::vector<SourceCandidate>& cands) const {
  std::vector<facts::SourceFact> out;
  for (const auto& c : cands)
    if (c.type->yields == facts::Yields::Group || c.type->yields == facts::Yields::Collection)
      out.push_back({c.spelling, c.type->yields, c.type->group, c.decl->getName().str(),
                     shapeOf(c.decl->getType()), c.type->groups});
  return out;
}

std::string ScopeSources::pick(const std::vector<SourceCandidate>& cands, const std::string& group,
                               facts::Yields yields, bool* pointer) const {
  std::vector<facts::SourceFact> sources = facts(cands);
  bool field = false;
  const facts::SourceFact* s = rules::pickSource(sources, group, yields, &field);
  if (!s) return "";
  if (pointer) *pointer = field || s->shape != facts::Shape{};
  return rules::spellPicked(*s, field, group);
}

std::string ScopeSources::pickState(const std::vector<SourceCandidate>& cands,
                                    const std::string& stateType,
                                    const std::string& field) const {
  for (const auto& c : cands)
    if (c.type->yields == facts::Yields::State && (stateType.empty() || c.type->type == stateType))
      return c.spelling + (c.pointerLike ? "->" : ".") + field;
  return "";
}

}  // namespace gridlock::frontend
