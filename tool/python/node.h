// Small helpers over a FlatTree's nodes (flat_tree.h), for the extraction's walks.
#pragma once

#include "python/flat_tree.h"
#include "python/grammar.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace gridlock::python {

// A node type's name as a template argument: `is<"identifier">(n)`.
template <size_t N>
struct TypeName {
  char text[N];
  constexpr TypeName(const char (&s)[N]) { std::copy_n(s, N, text); }
};

// The grammar's symbol of a named node type, looked up once: comparing symbols is what makes
// the walks cheap (a string comparison per check was a tenth of the extraction's time). A
// name the grammar lacks is a GrammarError, not a check that is never true.
template <TypeName name>
TSSymbol symbol() {
  static const TSSymbol s = [] {
    const TSLanguage* language = pythonLanguage();
    TSSymbol found = ts_language_symbol_for_name(
        language, name.text, static_cast<uint32_t>(sizeof(name.text) - 1), true);
    if (found == 0)
      throw GrammarError(std::string("the Python grammar has no node type ") + name.text);
    return found;
  }();
  return s;
}

template <TypeName name>
bool is(Node n) {
  return n.symbol() == symbol<name>();  // a null node's symbol is 0, no type's
}

// The child in field `name` (null when none): `field<"left">(n)`, by the field's id, looked
// up once.
template <TypeName name>
Node field(Node n) {
  static const TSFieldId id = [] {
    TSFieldId found = ts_language_field_id_for_name(pythonLanguage(), name.text,
                                                    static_cast<uint32_t>(sizeof(name.text) - 1));
    if (found == 0) throw GrammarError(std::string("the Python grammar has no field ") + name.text);
    return found;
  }();
  return n.child(id);
}

inline bool same(Node a, Node b) { return a == b; }

// 1-based line and column (in bytes) of where `n` starts.
inline unsigned lineOf(Node n) { return n.startPoint().row + 1; }
inline unsigned columnOf(Node n) { return n.startPoint().column + 1; }

// The parentheses and `(x)` around an expression do not change what it is.
inline Node unparen(Node n) {
  while (is<"parenthesized_expression">(n) && n.namedChildCount() == 1) n = n.namedChild(0);
  return n;
}

// The named children of `n` (none for a null node), comments left out (they may sit
// between any two).
inline NodeList namedChildren(Node n) { return n.namedChildren(); }

}  // namespace gridlock::python
