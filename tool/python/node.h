// Small helpers over tree-sitter nodes, for the extraction's walks.
#pragma once

#include "python/grammar.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include <string_view>
#include <vector>

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
bool is(TSNode n) {
  return !ts_node_is_null(n) && ts_node_symbol(n) == symbol<name>();
}

// The child in field `name` (null when none): `field<"left">(n)`, by the field's id, looked
// up once (by name, tree-sitter compares strings on every call).
template <TypeName name>
TSNode field(TSNode n) {
  static const TSFieldId id = [] {
    TSFieldId found = ts_language_field_id_for_name(pythonLanguage(), name.text,
                                                    static_cast<uint32_t>(sizeof(name.text) - 1));
    if (found == 0) throw GrammarError(std::string("the Python grammar has no field ") + name.text);
    return found;
  }();
  return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, id);
}

inline bool same(TSNode a, TSNode b) { return ts_node_eq(a, b); }

// 1-based line and column (in bytes) of where `n` starts.
inline unsigned lineOf(TSNode n) { return ts_node_start_point(n).row + 1; }
inline unsigned columnOf(TSNode n) { return ts_node_start_point(n).column + 1; }

// The parentheses and `(x)` around an expression do not change what it is.
inline TSNode unparen(TSNode n) {
  while (is<"parenthesized_expression">(n) && ts_node_named_child_count(n) == 1)
    n = ts_node_named_child(n, 0);
  return n;
}

// The named children of `n` (none for a null node), comments left out (they may sit
// between any two).
inline std::vector<TSNode> namedChildren(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  // A cursor steps to the next sibling in constant time (ts_node_named_child(n, i) walks from
  // the first child each time); one per thread, reset for each node, allocates nothing.
  struct Cursor {
    TSTreeCursor cursor;
    bool made = false;
    ~Cursor() {
      if (made) ts_tree_cursor_delete(&cursor);
    }
  };
  thread_local Cursor c;
  if (c.made) {
    ts_tree_cursor_reset(&c.cursor, n);
  } else {
    c.cursor = ts_tree_cursor_new(n);
    c.made = true;
  }
  for (bool more = ts_tree_cursor_goto_first_child(&c.cursor); more;
       more = ts_tree_cursor_goto_next_sibling(&c.cursor)) {
    TSNode child = ts_tree_cursor_current_node(&c.cursor);
    if (ts_node_is_named(child) && !is<"comment">(child)) out.push_back(child);
  }
  return out;
}

}  // namespace gridlock::python
