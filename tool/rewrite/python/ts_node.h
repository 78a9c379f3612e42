// The rewriter's helpers over tree-sitter's own nodes (TSNode), which it walks up as well as
// down (a statement's block, a def's class): python/node.h's flat nodes, which the scan's
// extraction walks, go down only. Node types and fields are looked up as python/node.h does.
#pragma once

#include "python/node.h"

#include <tree_sitter/api.h>

#include <functional>
#include <vector>

namespace gridlock::rewrite::py::ts {

template <python::TypeName name>
bool is(TSNode n) {
  return !ts_node_is_null(n) && ts_node_symbol(n) == python::symbol<name>();
}

template <python::TypeName name>
TSNode field(TSNode n) {
  static const TSFieldId id = ts_language_field_id_for_name(
      python::pythonLanguage(), name.text, static_cast<uint32_t>(sizeof(name.text) - 1));
  return ts_node_is_null(n) || id == 0 ? TSNode{} : ts_node_child_by_field_id(n, id);
}

inline bool same(TSNode a, TSNode b) { return ts_node_eq(a, b); }
inline unsigned lineOf(TSNode n) { return ts_node_start_point(n).row + 1; }

// The named children of `n`, comments left out (none for a null node).
inline std::vector<TSNode> namedChildren(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  for (uint32_t i = 0, count = ts_node_named_child_count(n); i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (!is<"comment">(c)) out.push_back(c);
  }
  return out;
}

// `f` on `n` and every node under it, in source order.
inline void walk(TSNode n, const std::function<void(TSNode)>& f) {
  f(n);
  for (uint32_t i = 0, count = ts_node_child_count(n); i < count; ++i) walk(ts_node_child(n, i), f);
}

inline TSNode unparen(TSNode n) {
  while (is<"parenthesized_expression">(n) && namedChildren(n).size() == 1) n = namedChildren(n)[0];
  return n;
}

}  // namespace gridlock::rewrite::py::ts
