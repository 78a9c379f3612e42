// Guard classification: does a read only run because an explicit group is missing?
// `pg ? pg : g()`, `pg ?: g()`, `!pg ? g() : pg`, `if (!pg) pg = g();`,
// `if (pg == nullptr) { ... }`, `if (pg) {...} else {... g() ...}`, `pg.value_or(g())`,
// and the MPI form `comm != MPI_COMM_NULL ? comm : MPI_COMM_WORLD`.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <vector>

namespace gridlock::frontend {

// `path` holds the statements from the function body down to the read's own expression
// (last). Returns true when one of them only runs its part holding the read on a missing
// explicit argument.
bool isFallback(const std::vector<const clang::Stmt*>& path, clang::ASTContext& ctx);

}  // namespace gridlock::frontend
