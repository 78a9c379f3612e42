// What could replace a global read at a given place: a parameter, a local declared before it,
// or a field of the enclosing class (or its bases) whose type the rule pack lists as a group,
// a collection or per-model state. This is the frontend's fix hint; the rewriter refines it.
#pragma once

#include "facts/facts.h"
#include "rules/rule_set.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::frontend {

struct SourceCandidate {
  const clang::ValueDecl* decl = nullptr;
  std::string spelling;  // how to name it at the read: "pg", "this->pg_collection_"
  const rules::TypeRule* type = nullptr;  // yields group | collection
  bool pointerLike = false;
};

// Type rules found, not written: the type a `yields: group` accessor returns is a group type,
// what a `yields: collection` one returns a collection type (looking through references,
// pointers, smart pointers and std::optional), by qualified name. A pack's own `types` entry
// for the same name wins.
using InferredTypes = std::map<std::string, rules::TypeRule>;

// What a translation unit declares of the rules, found by qualified lookup once it is parsed.
struct DeclaredRules {
  // rules::RuleSet::seenKey of every function, variable and type rule the unit declares
  // (sorted); macro rules are seen by the preprocessor instead.
  std::vector<std::string> seen;
  InferredTypes inferred;
};
DeclaredRules declaredRules(clang::ASTContext& ctx, const rules::RuleSet& rules);

class ScopeSources {
 public:
  // `inferred`, when given, adds to the packs' type rules (see InferredTypes).
  explicit ScopeSources(const rules::RuleSet& rules, const InferredTypes* inferred = nullptr)
      : rules_(rules), inferred_(inferred) {}

  // The type rule for a qualified type name: the packs', else an inferred one; null when none.
  const rules::TypeRule* typeRule(const std::string& qualifiedName) const;

  // The type rule that says what `type` holds, looking through references, pointers, const,
  // typedefs and std::shared_ptr/unique_ptr/optional; null when none does.
  const rules::TypeRule* ruleOf(clang::QualType type, bool* pointerLike = nullptr) const;

  // Candidates visible in `fn`: its parameters, then `locals`, then fields of its class and
  // of the bases of that class.
  // `fields` false: not the class's fields (in a constructor's initializer list, where they
  // may not be initialized yet).
  std::vector<SourceCandidate> candidates(const clang::FunctionDecl* fn,
                                          const std::vector<const clang::VarDecl*>& locals,
                                          bool fields = true) const;

  // How a value of `type` holds what its rule names: a raw pointer, a shared_ptr, a
  // unique_ptr, itself (a value, a reference, a handle typedef such as MPI_Comm), or any of
  // those inside a std::optional.
  facts::Shape shapeOf(clang::QualType type) const;

  // The group and collection candidates as plain facts (state types left out).
  std::vector<facts::SourceFact> facts(const std::vector<SourceCandidate>& cands) const;

  // The spelling of the best candidate for a read of `group` yielding `yields`, or "".
  // `pointer` receives whether the spelling names a pointer or smart pointer (a field of a
  // collection is taken to be one: the runtime's are std::shared_ptr). For an env object
  // (rewrite.env) holding the group, the env itself, and `env` receives true.
  std::string pick(const std::vector<SourceCandidate>& cands, const std::string& group,
                   facts::Yields yields, bool* pointer = nullptr, bool* env = nullptr) const;

  // The spelling of `field` of the first candidate holding per-model state of `stateType`
  // (any state type when empty): "this->sharding_.num_kv_heads", "meta->num_kv_heads"; or "".
  std::string pickState(const std::vector<SourceCandidate>& cands, const std::string& stateType,
                        const std::string& field) const;

 private:
  const rules::RuleSet& rules_;
  const InferredTypes* inferred_;
};

}  // namespace gridlock::frontend
