// Small helpers over tree-sitter nodes, for the extraction's walks.
#pragma once

#include <tree_sitter/api.h>

#include <cstring>
#include <string_view>
#include <vector>

namespace gridlock::python {

inline bool is(TSNode n, const char* type) {
  return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0;
}

inline TSNode field(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name)));
}

inline bool same(TSNode a, TSNode b) { return ts_node_eq(a, b); }

// 1-based line and column (in bytes) of where `n` starts.
inline unsigned lineOf(TSNode n) { return ts_node_start_point(n).row + 1; }
inline unsigned columnOf(TSNode n) { return ts_node_start_point(n).column + 1; }

// The parentheses and `(x)` around an expression do not change what it is.
inline TSNode unparen(TSNode n) {
  while (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
    n = ts_node_named_child(n, 0);
  return n;
}

// The named children of `n` (none for a null node), comments left out (they may sit
// between any two).
inline std::vector<TSNode> namedChildren(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  // A cursor steps to the next sibling in constant time; ts_node_named_child(n, i) walks
  // from the first child each time.
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&cursor); more;
       more = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode child = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_named(child) && !is(child, "comment")) out.push_back(child);
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

}  // namespace gridlock::python
