#include "python/attribute_copies.h"

#include "python/node.h"

#include <vector>

namespace gridlock::python {
namespace {

bool contains(Node outer, Node inner) {
  return outer.startByte() <= inner.startByte() && inner.endByte() <= outer.endByte();
}

// What an occurrence `n` of the attribute is the target of, through tuples, items and
// attributes of it (`self.x.y = v` counts: conservatively a write): the assignment, `for`,
// `del` or `with` that writes it, or null when it is read.
Node writerOf(Node n) {
  Node child = n;
  for (Node p = n.parent(); !p.isNull(); child = p, p = p.parent()) {
    bool through = (is<"subscript">(p) && same(child, field<"value">(p))) ||
                   (is<"attribute">(p) && same(child, field<"object">(p))) ||
                   is<"pattern_list">(p) || is<"tuple_pattern">(p) || is<"list_pattern">(p) ||
                   is<"list_splat_pattern">(p) || is<"expression_list">(p) || is<"tuple">(p) ||
                   is<"list">(p) || is<"list_splat">(p) || is<"parenthesized_expression">(p) ||
                   is<"as_pattern_target">(p);
    if (through) continue;
    bool target = ((is<"assignment">(p) || is<"augmented_assignment">(p) ||
                    is<"for_statement">(p) || is<"for_in_clause">(p)) &&
                   same(child, field<"left">(p))) ||
                  (is<"as_pattern">(p) && same(child, field<"alias">(p))) ||
                  is<"delete_statement">(p);
    return target ? p : Node();
  }
  return Node();
}

class Copies {
 public:
  Copies(const SyntaxTree& tree, const std::string& self, std::string attribute)
      : tree_(tree), self_(self), attribute_(std::move(attribute)) {}

  bool isAttribute(Node n) const {
    n = unparen(n);
    Node object = field<"object">(n);
    return is<"attribute">(n) && is<"identifier">(object) && tree_.text(object) == self_ &&
           tree_.text(field<"attribute">(n)) == attribute_;
  }

  // Whether `n` writes the attribute where it may change what `use` sees: before it, or around
  // it (a loop's target) rather than after the right side holding it is evaluated.
  bool writesBefore(Node n, Node use) const {
    std::vector<Node> writers;
    collect(n, writers);
    for (Node w : writers) {
      if (w.endByte() <= use.startByte()) return true;
      bool evaluatedFirst = (is<"assignment">(w) || is<"augmented_assignment">(w)) &&
                            contains(field<"right">(w), use);
      if (contains(w, use) && !evaluatedFirst) return true;
    }
    return false;
  }

  // `self.x = name` as a statement of its own: the name.
  std::string copied(Node statement) const {
    if (!is<"expression_statement">(statement) || statement.namedChildCount() != 1) return "";
    Node a = statement.namedChild(0), right = field<"right">(a);
    if (!is<"assignment">(a) || !isAttribute(field<"left">(a)) || !is<"identifier">(right))
      return "";
    return std::string(tree_.text(right));
  }

 private:
  void collect(Node n, std::vector<Node>& writers) const {
    if (isAttribute(n))
      if (Node w = writerOf(n); !w.isNull()) writers.push_back(w);
    for (Node child : namedChildren(n)) collect(child, writers);
  }

  const SyntaxTree& tree_;
  const std::string& self_;
  std::string attribute_;
};

}  // namespace

std::string copiedParameter(const SyntaxTree& tree, Node body, Node use, const std::string& self_,
                            const std::function<bool(const std::string&)>& isParam) {
  use = unparen(use);
  if (!is<"attribute">(use)) return "";
  Copies copies(tree, self_, std::string(tree.text(field<"attribute">(use))));
  if (!copies.isAttribute(use)) return "";
  std::vector<Node> before;  // the body's statements before the one holding the use
  Node holding;
  for (Node s : namedChildren(body)) {
    if (contains(s, use)) {
      holding = s;
      break;
    }
    before.push_back(s);
  }
  if (holding.isNull() || copies.writesBefore(holding, use)) return "";
  for (size_t i = before.size(); i-- > 0;) {
    if (std::string name = copies.copied(before[i]); !name.empty())
      return isParam(name) ? name : "";
    if (copies.writesBefore(before[i], use)) return "";
  }
  return "";
}

}  // namespace gridlock::python
