#include "python/flat_tree.h"

namespace gridlock::python {

FlatTree::FlatTree(const TSTree* tree) : language_(ts_tree_language(tree)) {
  comment_ = ts_language_symbol_for_name(language_, "comment", 7, true);
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
  std::vector<uint32_t> open;  // the entries the walk is in
  auto add = [&] {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    Entry e;
    e.node = n;
    e.symbol = ts_node_symbol(n);
    e.field = ts_tree_cursor_current_field_id(&cursor);
    e.named = ts_node_is_named(n);
    e.startByte = ts_node_start_byte(n);
    e.endByte = ts_node_end_byte(n);
    e.start = ts_node_start_point(n);
    e.end = ts_node_end_point(n);
    e.parent = open.empty() ? UINT32_MAX : open.back();
    open.push_back(static_cast<uint32_t>(entries_.size()));
    entries_.push_back(e);
  };
  add();
  for (bool down = true;;) {
    if (down && ts_tree_cursor_goto_first_child(&cursor)) {
      add();
      continue;
    }
    entries_[open.back()].after = static_cast<uint32_t>(entries_.size());
    open.pop_back();  // the node the cursor is on is done
    if (open.empty()) break;
    down = ts_tree_cursor_goto_next_sibling(&cursor);
    if (down)
      add();
    else
      ts_tree_cursor_goto_parent(&cursor);
  }
  ts_tree_cursor_delete(&cursor);
  link();
}

// Each node's children as two contiguous runs of indices, in source order: a preorder walk
// meets a node's children in that order.
void FlatTree::link() {
  const size_t n = entries_.size();
  std::vector<uint32_t> all(n + 1, 0), named(n + 1, 0);
  for (size_t i = 1; i < n; ++i) {
    ++all[entries_[i].parent + 1];
    if (entries_[i].named && entries_[i].symbol != comment_) ++named[entries_[i].parent + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    all[i + 1] += all[i];
    named[i + 1] += named[i];
    entries_[i].kids = entries_[i].kidsEnd = all[i];
    entries_[i].namedKids = entries_[i].namedKidsEnd = named[i];
  }
  children_.resize(all[n]);
  named_.resize(named[n]);
  for (size_t i = 1; i < n; ++i) {
    Entry& p = entries_[entries_[i].parent];
    children_[p.kidsEnd++] = static_cast<uint32_t>(i);
    if (entries_[i].named && entries_[i].symbol != comment_)
      named_[p.namedKidsEnd++] = static_cast<uint32_t>(i);
  }
}

const char* Node::type() const {
  return tree_ ? ts_language_symbol_name(tree_->language_, symbol()) : "";
}

// The node below `from` that is `target`, found by position.
Node FlatTree::find(Node from, TSNode target) const {
  uint32_t start = ts_node_start_byte(target), end = ts_node_end_byte(target);
  TSSymbol symbol = ts_node_symbol(target);
  while (!from.isNull()) {
    Node into;
    for (Node c : from.children()) {
      const Entry& e = entries_[c.index_];
      if (e.startByte == start && e.endByte == end && e.symbol == symbol) return c;
      if (into.isNull() && e.startByte <= start && end <= e.endByte) into = c;
    }
    from = into;
  }
  return {};
}

Node Node::child(TSFieldId id) const {
  for (Node c : children())
    if (tree_->entries_[c.index_].field == id) return c;
  if (!tree_) return {};
  // No child is in the field itself: a hidden child may carry it, whose node tree-sitter
  // gives (match_statement's `alternative`: the case_clause in its body's block). A field the
  // node's production lacks is answered at once.
  TSNode found = ts_node_child_by_field_id(tree_->entries_[index_].node, id);
  return ts_node_is_null(found) ? Node() : tree_->find(*this, found);
}

Node Node::parent() const {
  if (!tree_ || tree_->entries_[index_].parent == UINT32_MAX) return {};
  return Node(tree_, tree_->entries_[index_].parent);
}

uint32_t Node::subtreeEnd() const { return tree_ ? tree_->entries_[index_].after : 0; }

NodeList Node::children() const {
  if (!tree_) return {};
  const auto& e = tree_->entries_[index_];
  const uint32_t* base = tree_->children_.data();
  return {tree_, base + e.kids, base + e.kidsEnd};
}

NodeList Node::namedChildren() const {
  if (!tree_) return {};
  const auto& e = tree_->entries_[index_];
  const uint32_t* base = tree_->named_.data();
  return {tree_, base + e.namedKids, base + e.namedKidsEnd};
}

Node Node::namedChild(size_t i) const {
  for (Node c : children())
    if (c.isNamed() && i-- == 0) return c;
  return {};
}

size_t Node::namedChildCount() const {
  size_t count = 0;
  for (Node c : children()) count += c.isNamed();
  return count;
}

}  // namespace gridlock::python
