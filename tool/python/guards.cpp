#include "python/guards.h"

#include "python/node.h"

#include <string_view>

namespace gridlock::python {
namespace {

bool isHolder(TSNode n) {
  n = unparen(n);
  if (is(n, "identifier")) return true;
  return is(n, "attribute") && isHolder(field(n, "object"));
}

std::string_view operatorOf(TSNode comparison) {
  for (uint32_t i = 0, c = ts_node_child_count(comparison); i < c; ++i) {
    TSNode op = ts_node_child(comparison, i);
    if (!ts_node_is_named(op)) return ts_node_type(op);
  }
  return {};
}

// What a condition tests: the holder, and whether it compares it with None (`h is None`)
// rather than testing its truth (`not h`, `h`).
struct Test {
  TSNode holder;
  bool withNone = false;
};

// `h OP None` or `None OP h` with OP one of `a`, `b`.
std::optional<Test> comparedWithNone(TSNode cmp, std::string_view a, std::string_view b) {
  std::vector<TSNode> operands = namedChildren(cmp);
  if (operands.size() != 2) return std::nullopt;
  std::string_view op = operatorOf(cmp);
  if (op != a && op != b) return std::nullopt;
  TSNode l = unparen(operands[0]), r = unparen(operands[1]);
  if (is(r, "none") && isHolder(l)) return Test{l, true};
  if (is(l, "none") && isHolder(r)) return Test{r, true};
  return std::nullopt;
}

// The holder `cond` says is missing: `h is None`, `h == None`, `not h`, either side of `or`.
std::optional<Test> missingTest(TSNode cond) {
  cond = unparen(cond);
  if (is(cond, "comparison_operator")) return comparedWithNone(cond, "is", "==");
  if (is(cond, "not_operator")) {
    TSNode arg = unparen(field(cond, "argument"));
    if (isHolder(arg)) return Test{arg, false};
    return std::nullopt;
  }
  if (is(cond, "boolean_operator") && operatorOf(cond) == "or") {
    if (auto h = missingTest(field(cond, "left"))) return h;
    return missingTest(field(cond, "right"));
  }
  return std::nullopt;
}

// The holder `cond` says is present: `h is not None`, `h != None`, `h`, either side of `and`.
std::optional<Test> presentTest(TSNode cond) {
  cond = unparen(cond);
  if (isHolder(cond)) return Test{cond, false};
  if (is(cond, "comparison_operator")) return comparedWithNone(cond, "is not", "!=");
  if (is(cond, "boolean_operator") && operatorOf(cond) == "and") {
    if (auto h = presentTest(field(cond, "left"))) return h;
    return presentTest(field(cond, "right"));
  }
  return std::nullopt;
}

class Finder {
 public:
  Finder(const SyntaxTree& tree, const std::vector<TSNode>& path) : tree_(tree), path_(path) {}

  std::optional<TSNode> run() const {
    for (size_t i = path_.size(); i-- > 1;) {
      TSNode p = path_[i - 1];
      if (is(p, "function_definition") || is(p, "lambda") || is(p, "class_definition") ||
          is(p, "module"))
        break;
      if (auto h = at(i - 1)) return h;
    }
    return std::nullopt;
  }

 private:
  bool sameText(TSNode a, TSNode b) const { return tree_.text(unparen(a)) == tree_.text(b); }

  // A truth test (`if not h`, `h if h else`) is a fallback only where the holder is what the
  // construct yields: assigned the read below it (`if not h: h = read()`), or the other
  // branch's value. A comparison with None is one wherever the read is.
  bool assignedBelow(size_t i, TSNode holder) const {
    for (size_t k = i + 1; k < path_.size(); ++k)
      if (is(path_[k], "assignment") && sameText(field(path_[k], "left"), holder)) return true;
    return false;
  }

  std::optional<TSNode> linked(const std::optional<Test>& t, bool link) const {
    if (!t || (!t->withNone && !link)) return std::nullopt;
    return t->holder;
  }

  // `if h is not None: return h` (nothing else, no else branch) before `stmt` in its block.
  std::optional<TSNode> earlierReturn(TSNode block, TSNode stmt) const {
    std::optional<TSNode> found;
    for (TSNode s : namedChildren(block)) {
      if (same(s, stmt)) return found;
      if (!is(s, "if_statement") || !ts_node_is_null(field(s, "alternative"))) continue;
      std::vector<TSNode> body = namedChildren(field(s, "consequence"));
      if (body.size() != 1 || !is(body[0], "return_statement")) continue;
      std::optional<Test> t = presentTest(field(s, "condition"));
      std::vector<TSNode> value = namedChildren(body[0]);
      if (t && value.size() == 1 && sameText(value[0], t->holder)) found = t->holder;
    }
    return std::nullopt;
  }

  // The holder that `path_[i]` makes the read fall back from, the read being below it.
  std::optional<TSNode> at(size_t i) const {
    TSNode p = path_[i], child = path_[i + 1];
    if (is(p, "boolean_operator") && operatorOf(p) == "or" && same(child, field(p, "right"))) {
      TSNode left = unparen(field(p, "left"));
      if (isHolder(left)) return left;
      return std::nullopt;
    }
    if (is(p, "conditional_expression")) {
      std::vector<TSNode> parts = namedChildren(p);  // value, condition, alternative
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
    if (is(p, "if_statement") || is(p, "elif_clause")) {
      std::optional<Test> t;
      if (same(child, field(p, "consequence")))
        t = missingTest(field(p, "condition"));
      else if (is(p, "if_statement") && is(child, "else_clause"))
        t = presentTest(field(p, "condition"));
      return linked(t, t && assignedBelow(i, t->holder));
    }
    if (is(p, "block")) return earlierReturn(p, child);
    return std::nullopt;
  }

  const SyntaxTree& tree_;
  const std::vector<TSNode>& path_;
};

}  // namespace

std::optional<TSNode> fallbackHolder(const SyntaxTree& tree, const std::vector<TSNode>& path) {
  return Finder(tree, path).run();
}

}  // namespace gridlock::python
