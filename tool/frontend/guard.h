// Guard classification: does a read only run because an explicit group is missing?
// `pg ? pg : g()`, `pg ?: g()`, `!pg ? g() : pg`, `if (!pg) pg = g();`,
// `if (pg == nullptr) { ... }`, `if (pg) {...} else {... g() ...}`, `pg.value_or(g())`,
// `if (pg) return pg; return g();`, and the MPI form `comm != MPI_COMM_NULL ? comm :
// MPI_COMM_WORLD`. A condition is read as the conjunction of what it says: `!pg && flag` says pg
// is missing where it is true; `!pg || flag` says nothing (its branch runs with pg given when
// flag is set), nor does the else of `pg && flag`; the else of `pg || flag` and of `pg && dp`
// (both groups) runs only when one is missing (the first is the holder).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <llvm/ADT/STLFunctionalExtras.h>

#include "facts/kinds.h"

#include <vector>

namespace gridlock::frontend {

// A fact about a parameter that holds where the read runs (`if (shard)` around it: shard is
// true), for laundering (facts::ParamTest).
struct ParamTestDecl {
  const clang::ParmVarDecl* param = nullptr;
  facts::Expect expect = facts::Expect::True;
};

// `path` holds the statements from the function body down to the read's own expression
// (last). Returns true when one of them only runs its part holding the read on a missing
// explicit argument.
// `holdsGroup` says whether a value of a type can be the explicit group (the rule pack's type
// rules): `if (!buf)` on a double* or `if (rank == 0)` is no test of a missing group.
// `tested`, when given, receives the declaration whose absence the guard tests (a parameter,
// variable or field), when the test names one. `tests`, when given, receives every fact about
// a parameter that the constructs on the path say holds where the read runs, the tested
// one's included.
using HoldsGroup = llvm::function_ref<bool(clang::QualType)>;
bool isFallback(const std::vector<const clang::Stmt*>& path, clang::ASTContext& ctx,
                HoldsGroup holdsGroup, const clang::ValueDecl** tested = nullptr,
                std::vector<ParamTestDecl>* tests = nullptr);

// Whether every use of `param` in `body` only reads its value: a test of it tests what the
// call passed.
bool onlyRead(const clang::Stmt* body, const clang::ParmVarDecl* param);

}  // namespace gridlock::frontend
