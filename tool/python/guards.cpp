#include "python/guards.h"

#include "python/chains.h"
#include "python/node.h"

#include <string_view>

namespace gridlock::python {
namespace {

std::string_view operatorOf(Node comparison) {
  for (Node op : comparison.children())
    if (!op.isNamed()) return op.type();
  return {};
}

// What a condition tests: the holder (as holderOf spells it), and whether it tests its
// presence (`h is None`, `hasattr(o, "h")`) rather than its truth (`not h`, `h`).
struct Test {
  std::string holder;
  bool withNone = false;
};

class Finder {
 public:
  Finder(const SyntaxTree& tree, const std::vector<Node>& path) : tree_(tree), path_(path) {}

  std::optional<std::string> run() const {
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
  // `builtin(o, "name"[, default])` with a literal name and `o` a holder: `o.name`.
  std::optional<std::string> namedAttribute(Node call, std::string_view builtin,
                                            size_t maxArgs) const {
    call = unparen(call);
    if (!is<"call">(call)) return {};
    Node fn = field<"function">(call), list = field<"arguments">(call);
    if (!is<"identifier">(fn) || tree_.text(fn) != builtin || !is<"argument_list">(list)) return {};
    NodeList args = namedChildren(list);
    if (args.size() < 2 || args.size() > maxArgs) return {};
    for (Node a : args)
      if (is<"keyword_argument">(a) || is<"list_splat">(a) || is<"dictionary_splat">(a)) return {};
    std::optional<std::string> object = holderOf(args[0]);
    std::optional<std::string> name = literalString(tree_, args[1]);
    if (!object || !name || name->empty()) return {};
    return *object + "." + *name;
  }

  // A name or attribute chain (`g`, `self.tp_group`), `getattr(o, "name"[, default])` with `o`
  // one: what a guard may test, spelled as a chain (`o.name`), or nothing.
  std::optional<std::string> holderOf(Node n) const {
    n = unparen(n);
    if (is<"identifier">(n)) return std::string(tree_.text(n));
    if (is<"attribute">(n)) {
      std::optional<std::string> object = holderOf(field<"object">(n));
      if (!object) return {};
      return *object + "." + std::string(tree_.text(field<"attribute">(n)));
    }
    return namedAttribute(n, "getattr", 3);
  }

  // `h OP None` or `None OP h` with OP one of `a`, `b`.
  std::optional<Test> comparedWithNone(Node cmp, std::string_view a, std::string_view b) const {
    NodeList operands = namedChildren(cmp);
    if (operands.size() != 2) return std::nullopt;
    std::string_view op = operatorOf(cmp);
    if (op != a && op != b) return std::nullopt;
    // `(g := expr) is None` tests what the walrus binds.
    auto tested = [](Node n) {
      n = unparen(n);
      return is<"named_expression">(n) ? field<"name">(n) : n;
    };
    Node l = tested(operands[0]), r = tested(operands[1]);
    if (is<"none">(r))
      if (auto h = holderOf(l)) return Test{*h, true};
    if (is<"none">(l))
      if (auto h = holderOf(r)) return Test{*h, true};
    return std::nullopt;
  }

  // The holder `cond` says is missing: `h is None`, `h == None`, `not h`, `not hasattr(o,
  // "h")`, either side of `or` or `and` (`if tp is None and dp is None:`, `if flag and tp is
  // None:`; the left one first).
  std::optional<Test> missingTest(Node cond) const {
    cond = unparen(cond);
    if (is<"comparison_operator">(cond)) return comparedWithNone(cond, "is", "==");
    if (is<"not_operator">(cond)) {
      Node arg = unparen(field<"argument">(cond));
      if (auto h = namedAttribute(arg, "hasattr", 2)) return Test{*h, true};
      if (auto h = holderOf(arg)) return Test{*h, false};
      return std::nullopt;
    }
    if (is<"boolean_operator">(cond)) {
      if (auto h = missingTest(field<"left">(cond))) return h;
      return missingTest(field<"right">(cond));
    }
    return std::nullopt;
  }

  // The holder `cond` says is present: `h is not None`, `h != None`, `h`, `hasattr(o, "h")`,
  // either side of `and`.
  std::optional<Test> presentTest(Node cond) const {
    cond = unparen(cond);
    if (auto h = namedAttribute(cond, "hasattr", 2)) return Test{*h, true};
    if (auto h = holderOf(cond)) return Test{*h, false};
    if (is<"comparison_operator">(cond)) return comparedWithNone(cond, "is not", "!=");
    if (is<"boolean_operator">(cond) && operatorOf(cond) == "and") {
      if (auto h = presentTest(field<"left">(cond))) return h;
      return presentTest(field<"right">(cond));
    }
    return std::nullopt;
  }

  bool sameHolder(Node a, const std::string& holder) const { return holderOf(a) == holder; }

  // A truth test (`if not h`, `h if h else`) is a fallback only where the holder is what the
  // construct yields: assigned the read below it (`if not h: h = read()`), or the other
  // branch's value. A presence test is one wherever the read is.
  bool assignedBelow(size_t i, const std::string& holder) const {
    for (size_t k = i + 1; k < path_.size(); ++k)
      if (is<"assignment">(path_[k]) && sameHolder(field<"left">(path_[k]), holder)) return true;
    return false;
  }

  std::optional<std::string> linked(const std::optional<Test>& t, bool link) const {
    if (!t || (!t->withNone && !link)) return std::nullopt;
    return t->holder;
  }

  // `if h is not None: return h` (nothing else, no else branch) before `stmt` in its block.
  std::optional<std::string> earlierReturn(Node block, Node stmt) const {
    std::optional<std::string> found;
    for (Node s : namedChildren(block)) {
      if (same(s, stmt)) return found;
      if (!is<"if_statement">(s) || !field<"alternative">(s).isNull()) continue;
      NodeList body = namedChildren(field<"consequence">(s));
      if (body.size() != 1 || !is<"return_statement">(body[0])) continue;
      std::optional<Test> t = presentTest(field<"condition">(s));
      NodeList value = namedChildren(body[0]);
      if (t && value.size() == 1 && sameHolder(value[0], t->holder)) found = t->holder;
    }
    return std::nullopt;
  }

  // The holder that `path_[i]` makes the read fall back from, the read being below it.
  std::optional<std::string> at(size_t i) const {
    Node p = path_[i], child = path_[i + 1];
    if (is<"boolean_operator">(p) && operatorOf(p) == "or" && same(child, field<"right">(p)))
      return holderOf(field<"left">(p));
    if (is<"conditional_expression">(p)) {
      NodeList parts = namedChildren(p);  // value, condition, alternative
      if (parts.size() != 3) return std::nullopt;
      if (same(child, parts[2])) {
        std::optional<Test> t = presentTest(parts[1]);
        return linked(t, t && sameHolder(parts[0], t->holder));
      }
      if (same(child, parts[0])) {
        std::optional<Test> t = missingTest(parts[1]);
        return linked(t, t && sameHolder(parts[2], t->holder));
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

std::optional<std::string> fallbackHolder(const SyntaxTree& tree, const std::vector<Node>& path) {
  return Finder(tree, path).run();
}

}  // namespace gridlock::python
