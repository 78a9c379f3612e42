#include "python/value_uses.h"

#include "python/node.h"

#include <array>

namespace gridlock::python {
namespace {

// Builtins whose argument builds nothing and goes nowhere: a test, a name, a text.
constexpr std::array<std::string_view, 9> kLooks = {
    "isinstance", "issubclass", "callable", "id", "type", "repr", "str", "print", "len"};
// Builtins whose first argument is an object whose attribute they read or change, and
// super(C, self): the class given is not built there.
constexpr std::array<std::string_view, 5> kAttributes = {"super", "hasattr", "getattr", "setattr",
                                                         "delattr"};

bool among(auto& names, std::string_view name) {
  for (std::string_view n : names)
    if (n == name) return true;
  return false;
}

// Whether `arg` given to the call `call` builds nothing there (kLooks, the first argument of
// kAttributes, of a patcher `x.setattr(C, ...)` or `patch.object(C, ...)`).
bool lookedAt(const SyntaxTree& tree, Node call, Node arg, const IsBuiltin& isBuiltin) {
  Node fn = unparen(field<"function">(call));
  NodeList args = namedChildren(field<"arguments">(call));
  bool first = !args.empty() && same(args[0], arg);
  if (is<"identifier">(fn)) {
    std::string name(tree.text(fn));
    // functools.partial(f, ...) is followed: its calls bind f's parameters (module_program.h).
    if (first && name == "partial") return true;
    if (!isBuiltin(name, fn)) return false;
    return among(kLooks, name) || (first && among(kAttributes, name));
  }
  if (!is<"attribute">(fn) || !first) return false;
  std::string_view attribute = tree.text(field<"attribute">(fn));
  if (attribute == "partial") return true;
  Node object = unparen(field<"object">(fn));
  return attribute == "setattr" ||
         (attribute == "object" &&
          ((is<"identifier">(object) && tree.text(object) == "patch") ||
           (is<"attribute">(object) && tree.text(field<"attribute">(object)) == "patch")));
}

// Whether `n` is inside an annotation, up to the statement it is in.
bool inAnnotation(const std::vector<Node>& path, size_t i) {
  for (size_t j = i; j-- > 0;) {
    if (is<"type">(path[j])) return true;
    if (is<"block">(path[j]) || is<"module">(path[j])) return false;
  }
  return false;
}

ValueContext escapes(Handed how) { return {ValueUse::Escapes, how, -1, {}}; }

}  // namespace

bool isDisplay(Node n) {
  return is<"list">(n) || is<"tuple">(n) || is<"set">(n) || is<"dictionary">(n);
}

std::vector<Node> displayElements(Node display) {
  std::vector<Node> out;
  for (Node e : namedChildren(display)) {
    if (is<"pair">(e))
      out.push_back(field<"value">(e));
    else if (!is<"list_splat">(e) && !is<"dictionary_splat">(e))
      out.push_back(e);
  }
  return out;
}

ValueContext valueContext(const SyntaxTree& tree, const std::vector<Node>& path,
                          const IsBuiltin& isBuiltin) {
  if (path.size() < 2) return {};
  size_t i = path.size() - 1;
  Node child = path[i];
  // What a value passes through unchanged: parentheses, a conditional's branches, `a or b`.
  for (; i > 0; --i) {
    Node p = path[i - 1];
    if (is<"parenthesized_expression">(p) || is<"boolean_operator">(p)) {
      child = p;
      continue;
    }
    if (is<"conditional_expression">(p)) {
      NodeList parts = namedChildren(p);  // body, condition, else
      if (parts.size() == 3 && same(parts[1], child)) return {};
      child = p;
      continue;
    }
    break;
  }
  if (i == 0) return {};
  Node p = path[i - 1];
  if (inAnnotation(path, i)) return {};
  if (is<"call">(p))  // called at once through a conditional: which class is built is unseen
    return same(field<"function">(p), child) && !same(child, path.back()) ? escapes(Handed::Other)
                                                                          : ValueContext{};
  if (is<"class_definition">(p)) return {};  // a base, visited without its argument list
  if (is<"decorator">(p))  // `@C`: called with the definition (a site); `@(C or D)` is not seen
    return same(child, path.back()) ? ValueContext{} : escapes(Handed::Other);
  if (is<"argument_list">(p)) {
    Node owner = i >= 2 ? path[i - 2] : Node();
    if (is<"class_definition">(owner)) return {};  // a base
    if (is<"call">(owner) && lookedAt(tree, owner, child, isBuiltin)) return {};
    return escapes(Handed::Argument);
  }
  if (is<"keyword_argument">(p)) return escapes(Handed::Argument);
  if (is<"comparison_operator">(p) || is<"not_operator">(p) || is<"attribute">(p) ||
      is<"expression_statement">(p))
    return {};
  if (is<"subscript">(p)) {
    if (!same(field<"value">(p), child)) return {};  // `d[C]`: a key, nothing built
    Node owner = i >= 2 ? path[i - 2] : Node();
    if (is<"call">(owner) && same(field<"function">(owner), p)) return {};  // `N[k](x)`: called
    // An item of it handed on (`f(N[k])`), or bound to a name (`x = N[k]`, which the scan
    // follows only where N is a display of the same file: the extraction's flows).
    std::vector<Node> up(path.begin(), path.begin() + static_cast<long>(i));
    ValueContext item = valueContext(tree, up, isBuiltin);
    if (item.use != ValueUse::None) return escapes(item.handed);
    if (is<"assignment">(owner) && same(field<"right">(owner), p)) return escapes(Handed::Stored);
    return {};
  }
  if (is<"return_statement">(p)) return {ValueUse::Returned, Handed::Returned, -1, {}};
  if (is<"lambda">(p)) return escapes(Handed::Lambda);
  if (is<"yield">(p)) return escapes(Handed::Yielded);
  if (is<"default_parameter">(p) || is<"typed_default_parameter">(p))
    return escapes(Handed::Default);
  if (is<"pair">(p) && !same(field<"value">(p), child)) return {};  // a dict's key
  if (isDisplay(p) || is<"pair">(p) || is<"expression_list">(p)) {
    if (is<"pair">(p) && i < 2) return escapes(Handed::Element);
    Node display = is<"pair">(p) ? path[i - 2] : p;
    size_t d = is<"pair">(p) ? i - 2 : i - 1;
    // `return A, B`: the element of a returned tuple.
    Node up = d > 0 ? path[d - 1] : Node();
    if ((is<"expression_list">(display) || is<"tuple">(display)) && is<"return_statement">(up)) {
      int element = 0;
      for (Node e : namedChildren(display)) {
        if (same(e, child)) return {ValueUse::Returned, Handed::Returned, element, {}};
        ++element;
      }
    }
    // `isinstance(x, (Col, Row))`, `type(x) in (Col, Row)`: tested, nothing built.
    if (is<"comparison_operator">(up) ||
        (is<"argument_list">(up) && d >= 2 && is<"call">(path[d - 2]) &&
         lookedAt(tree, path[d - 2], display, isBuiltin)))
      return {};
    // `LAYERS = [Col, Row]` (not in a class body, whose names the scan does not follow).
    if (isDisplay(display) && is<"assignment">(up) && same(field<"right">(up), display) &&
        is<"identifier">(field<"left">(up)) && !(d >= 4 && is<"class_definition">(path[d - 4])))
      return {ValueUse::Element, Handed::Element, -1, field<"left">(up)};
    return escapes(Handed::Element);
  }
  if (is<"assignment">(p) || is<"augmented_assignment">(p)) {
    Node left = field<"left">(p);
    // `x = C` is an alias the scan follows, but not in a class body (`self.x(...)` is not),
    // nor through a conditional or `or` (`x = C if a else D` binds no alias).
    bool inClass = i >= 4 && is<"class_definition">(path[i - 4]);
    if (is<"assignment">(p) && same(field<"right">(p), child) && is<"identifier">(left) &&
        !inClass && same(child, path.back()))
      return {};
    return escapes(Handed::Stored);
  }
  return escapes(Handed::Other);
}

ResultGoes resultGoes(const SyntaxTree& tree, const std::vector<Node>& path,
                      const IsBuiltin& isBuiltin, Handed* how) {
  size_t i = path.size() - 1;
  Node child = path[i];
  while (i > 0 && is<"parenthesized_expression">(path[i - 1])) child = path[--i];
  if (i == 0) return ResultGoes::Discarded;
  Node p = path[i - 1];
  if (is<"call">(p) && same(field<"function">(p), child)) return ResultGoes::Called;
  if (is<"assignment">(p) && same(field<"right">(p), child)) {
    Node left = unparen(field<"left">(p));
    bool names = is<"identifier">(left);
    if (is<"pattern_list">(left) || is<"tuple_pattern">(left) || is<"expression_list">(left) ||
        is<"tuple">(left)) {
      names = true;
      for (Node n : namedChildren(left)) names = names && is<"identifier">(n);
    }
    bool inClass = i >= 4 && is<"class_definition">(path[i - 4]);
    if (names && !inClass) return ResultGoes::Bound;
  }
  std::vector<Node> upTo(path.begin(), path.begin() + static_cast<long>(i) + 1);
  ValueContext c = valueContext(tree, upTo, isBuiltin);
  if (c.use == ValueUse::None) return ResultGoes::Discarded;
  *how = c.handed;
  return ResultGoes::HandedOn;
}

std::string_view describe(Handed how) {
  switch (how) {
    case Handed::Argument:
      return "passed as an argument";
    case Handed::Stored:
      return "stored in an attribute, an item or a class body";
    case Handed::Element:
      return "put in a list, tuple, set or dict";
    case Handed::Returned:
      return "returned";
    case Handed::Yielded:
      return "yielded";
    case Handed::Default:
      return "a parameter's default";
    case Handed::Lambda:
      return "a lambda's value";
    case Handed::Decorator:
      return "passed to a decorator";
    case Handed::Other:
      break;
  }
  return "used as a value";
}

}  // namespace gridlock::python
