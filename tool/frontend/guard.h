// Guard classification: does a read only run because an explicit group is missing?
// `pg ? pg : g()`, `pg ?: g()`, `!pg ? g() : pg`, `if (!pg) pg = g();`,
// `if (pg == nullptr) { ... }`, `if (pg) {...} else {... g() ...}`, `pg.value_or(g())`,
// `if (pg) return pg; return g();`,
// and the MPI form `comm != MPI_COMM_NULL ? comm : MPI_COMM_WORLD`.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <llvm/ADT/STLFunctionalExtras.h>

#include <vector>

namespace gridlock::frontend {

// `path` holds the statements from the function body down to the read's own expression
// (last). Returns true when one of them only runs its part holding the read on a missing
// explicit argument.
// `holdsGroup` says whether a value of a type can be the explicit group (the rule pack's type
// rules): `if (!buf)` on a double* or `if (rank == 0)` is no test of a missing group.
// `tested`, when given, receives the declaration whose absence the guard tests (a parameter,
// variable or field), when the test names one.
using HoldsGroup = llvm::function_ref<bool(clang::QualType)>;
bool isFallback(const std::vector<const clang::Stmt*>& path, clang::ASTContext& ctx,
                HoldsGroup holdsGroup, const clang::ValueDecl** tested = nullptr);

}  // namespace gridlock::frontend
