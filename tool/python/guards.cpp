#include "python/guards.h"

#include "python/node.h"

#include <string_view>

namespace gridlock::python {
namespace {

bool isHolder(Node n) {
  n = unparen(n);
  if (is<"identifier">(n)) return true;
  return is<"attribute">(n) && isHolder(field<"object">(n));
}

std::string_view operatorOf(Node comparison) {
  for (Node op : comparison.children())
    if (!op.isNamed()) return op.type();
  return {};
}

// What a condition tests: the holder, and whether it compares it with None (`h is None`)
// rather than testing its truth (`not h`, `h`).
struct Test {
  Node holder;
  bool withNone = false;
};

// `h OP None` or `None OP h` with OP one of `a`, `b`.
std::optional<Test> comparedWithNone(Node cmp, std::string_view a, std::string_view b) {
  NodeList operands = namedChildren(cmp);
  if (operands.size() != 2) return std::nullopt;
  std::string_view op = operatorOf(cmp);
  if (op != a && op != b) return std::nullopt;
  // `(g := expr) is None` tests what the walrus binds.
  auto holderOf = [](Node n) {
    n = unparen(n);
    return is<"named_expression">(n) ? field<"name">(n) : n;
  };
  Node l = holderOf(operands[0]), r = holderOf(operands[1]);
  if (is<"none">(r) && isHolder(l)) return Test{l, true};
  if (is<"none">(l) && isHolder(r)) return Test{r, true};
  return std::nullopt;
}

// The holder `cond` says is missing: `h is None`, `h == None`, `not h`, either side of `or`
// or `and` (`if tp is None and dp is None:`, `if flag and tp is None:`; the left one first).
std::optional<Test> missingTest(Node cond) {
  cond = unparen(cond);
  if (is<"comparison_operator">(cond)) return comparedWithNone(cond, "is", "==");
  if (is<"not_operator">(cond)) {
    Node arg = unparen(field<"argument">(cond));
    if (isHolder(arg)) return Test{arg, false};
    return std::nullopt;
  }
  if (is<"boolean_operator">(cond)) {
    if (auto h = missingTest(field<"left">(cond))) return h;
    return missingTest(field<"right">(cond));
  }
  return std::nullopt;
}

// The holder `cond` says is present: `h is not None`, `h != None`, `h`, either side of `and`.
std::optional<Test> presentTest(Node cond) {
  cond = unparen(cond);
  if (isHolder(cond)) return Test{cond, false};
  if (is<"comparison_operator">(cond)) return comparedWithNone(cond, "is not", "!=");
  if (is<"boolean_operator">(cond) && operatorOf(cond) == "and") {
    if (auto h = presentTest(field<"left">(cond))) return h;
    return presentTest(field<"right">(cond));
  }
  return std::nullopt;
}

class Finder {
 public:
  Finder(const SyntaxTree& tree, const std::vector<Node>& path) : tree_(tree), path_(path) {}

  std::optional<Node> run() const {
    for (size_t i = path_.size(); i-- > 1;) {
      Node p = path_[i - 1];
      if (is<"function_definition">(p) || is<"lambda">(p) || is<"class_definition">(p) ||
          is<"module">(p))
        break;
      if (auto h = at(i - 1)) return h;
    }
    return std::nullopt;
  }

 private:
  bool sameText(Node a, Node b) const { return tree_.text(unparen(a)) == tree_.text(b); }

  // A truth test (`if not h`, `h if h else`) is a fallback only where the holder is what the
  // construct yields: assigned the read below it (`if not h: h = read()`), or the other
  // branch's value. A comparison with None is one wherever the read is.
  bool assignedBelow(size_t i, Node holder) const {
    for (size_t k = i + 1; k < path_.size(); ++k)
      if (is<"assignment">(path_[k]) && sameText(field<"left">(path_[k]), holder)) return true;
    return false;
  }

  std::optional<Node> linked(const std::optional<Test>& t, bool link) const {
    if (!t || (!t->withNone && !link)) return std::nullopt;
    return t->holder;
  }

  // `if h is not None: return h` (nothing else, no else branch) before `stmt` in its block.
  std::optional<Node> earlierReturn(Node block, Node stmt) const {
    std::optional<Node> found;
    for (Node s : namedChildren(block)) {
      if (same(s, stmt)) return found;
      if (!is<"if_statement">(s) || !field<"alternative">(s).isNull()) continue;
      NodeList body = namedChildren(field<"consequence">(s));
      if (body.size() != 1 || !is<"return_statement">(body[0])) continue;
      std::optional<Test> t = presentTest(field<"condition">(s));
      NodeList value = namedChildren(body[0]);
      if (t && value.size() == 1 && sameText(value[0], t->holder)) found = t->holder;
    }
    return std::nullopt;
  }

  // The holder that `path_[i]` makes the read fall back from, the read being below it.
  std::optional<Node> at(size_t i) const {
    Node p = path_[i], child = path_[i + 1];
    if (is<"boolean_operator">(p) && operatorOf(p) == "or" && same(child, field<"right">(p))) {
      Node left = unparen(field<"left">(p));
      if (isHolder(left)) return left;
      return std::nullopt;
    }
    if (is<"conditional_expression">(p)) {
      NodeList parts = namedChildren(p);  // value, condition, alternative
      if (parts.size() != 3) return std::nullopt;
      if (same(child, parts[2])) {
        std::optional<Test> t = presentTest(parts[1]);
        return linked(t, t && sameText(parts[0], t->holder));
      }
      if (same(child, parts[0])) {
        std::optional<Test> t = missingTest(parts[1]);
        return linked(t, t && sameText(parts[2], t->holder));
      }
      return std::nullopt;
    }
    if (is<"if_statement">(p) || is<"elif_clause">(p)) {
      std::optional<Test> t;
      if (same(child, field<"consequence">(p)))
        t = missingTest(field<"condition">(p));
      else if (is<"if_statement">(p) && (is<"else_clause">(child) || is<"elif_clause">(child)))
        t = presentTest(field<"condition">(p));  // an elif's test and body run only after it
      return linked(t, t && assignedBelow(i, t->holder));
    }
    if (is<"block">(p)) return earlierReturn(p, child);
    return std::nullopt;
  }

  const SyntaxTree& tree_;
  const std::vector<Node>& path_;
};

}  // namespace

std::optional<Node> fallbackHolder(const SyntaxTree& tree, const std::vector<Node>& path) {
  return Finder(tree, path).run();
}

}  // namespace gridlock::python
