// A syntax tree's visible nodes in one array, copied from tree-sitter's tree by a single cursor
// walk. The extraction asks each node's type, fields and children several times (the binding
// pass, the reference pass, guards, chains); tree-sitter's node API works each answer out
// again on every call (a step between siblings goes through hidden nodes, a field lookup walks
// the children), which cost more than a third of a cold scan. Here each answer is an array
// read, and the answers are tree-sitter's own: the same nodes, types, fields and positions.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gridlock::python {

class FlatTree;
class NodeList;

// A node of a FlatTree, or null (a field or child that is not there). Cheap to copy; valid
// while its tree lives.
class Node {
 public:
  Node() = default;

  bool isNull() const { return tree_ == nullptr; }
  inline TSSymbol symbol() const;  // 0 for null
  inline bool isNamed() const;
  const char* type() const;  // the grammar's name of its type (ts_node_type's)
  inline uint32_t startByte() const;
  inline uint32_t endByte() const;
  inline TSPoint startPoint() const;
  inline TSPoint endPoint() const;
  // The first child in field `id` (ts_node_child_by_field_id's answer), or null.
  Node child(TSFieldId id) const;
  // Every visible child, anonymous tokens included (ts_node_child's).
  NodeList children() const;
  // The named children, comments left out (they may sit between any two).
  NodeList namedChildren() const;
  // The i-th named child, comments counted (ts_node_named_child's), or null.
  Node namedChild(size_t i) const;
  size_t namedChildCount() const;  // comments counted
  // The node it is a child of (null for the root).
  Node parent() const;
  // Unique within its tree: its place in preorder (FlatTree::at). Its descendants are the
  // nodes from id() + 1 up to, not including, subtreeEnd().
  uint32_t id() const { return index_; }
  uint32_t subtreeEnd() const;
  bool operator==(const Node& o) const { return tree_ == o.tree_ && index_ == o.index_; }

 private:
  friend class FlatTree;
  friend class NodeList;
  Node(const FlatTree* tree, uint32_t index) : tree_(tree), index_(index) {}
  const FlatTree* tree_ = nullptr;
  uint32_t index_ = 0;
};

// Children of a node, in source order.
class NodeList {
 public:
  class iterator {
   public:
    iterator(const FlatTree* tree, const uint32_t* at) : tree_(tree), at_(at) {}
    Node operator*() const { return Node(tree_, *at_); }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator!=(const iterator& o) const { return at_ != o.at_; }

   private:
    const FlatTree* tree_;
    const uint32_t* at_;
  };

  NodeList() = default;
  NodeList(const FlatTree* tree, const uint32_t* begin, const uint32_t* end)
      : tree_(tree), begin_(begin), end_(end) {}
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  bool empty() const { return begin_ == end_; }
  Node operator[](size_t i) const { return Node(tree_, begin_[i]); }
  iterator begin() const { return {tree_, begin_}; }
  iterator end() const { return {tree_, end_}; }

 private:
  const FlatTree* tree_ = nullptr;
  const uint32_t* begin_ = nullptr;
  const uint32_t* end_ = nullptr;
};

class FlatTree {
 public:
  FlatTree() = default;
  // Copies `tree`, which must outlive it.
  explicit FlatTree(const TSTree* tree);
  FlatTree(const FlatTree&) = delete;  // nodes point at their tree
  FlatTree& operator=(const FlatTree&) = delete;
  FlatTree(FlatTree&&) = delete;
  FlatTree& operator=(FlatTree&&) = delete;

  Node root() const { return entries_.empty() ? Node() : Node(this, 0); }
  // Every node, in preorder (a node before its children, children in source order).
  size_t size() const { return entries_.size(); }
  Node at(size_t i) const { return Node(this, static_cast<uint32_t>(i)); }

 private:
  friend class Node;
  struct Entry {
    TSNode node{};  // for a field a hidden child carries (flat_tree.cpp, Node::child)
    TSSymbol symbol = 0;
    TSFieldId field = 0;  // the field it is in, within its parent; 0: none
    bool named = false;
    uint32_t startByte = 0, endByte = 0;
    TSPoint start{}, end{};
    // Its children: children_[kids, kidsEnd) all; named_[namedKids, namedKidsEnd) the named
    // ones but comments.
    uint32_t kids = 0, kidsEnd = 0, namedKids = 0, namedKidsEnd = 0;
    uint32_t parent = UINT32_MAX;  // none for the root
    uint32_t after = 0;            // one past its last descendant
  };
  void link();
  Node find(Node from, TSNode target) const;

  const TSLanguage* language_ = nullptr;
  TSSymbol comment_ = 0;
  std::vector<Entry> entries_;
  std::vector<uint32_t> children_, named_;
};

// What the walks ask most, inline: a symbol per check of a node's type.
TSSymbol Node::symbol() const { return tree_ ? tree_->entries_[index_].symbol : 0; }
bool Node::isNamed() const { return tree_ && tree_->entries_[index_].named; }
uint32_t Node::startByte() const { return tree_ ? tree_->entries_[index_].startByte : 0; }
uint32_t Node::endByte() const { return tree_ ? tree_->entries_[index_].endByte : 0; }
TSPoint Node::startPoint() const { return tree_ ? tree_->entries_[index_].start : TSPoint{}; }
TSPoint Node::endPoint() const { return tree_ ? tree_->entries_[index_].end : TSPoint{}; }

}  // namespace gridlock::python
