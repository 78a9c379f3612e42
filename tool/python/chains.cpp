#include "python/chains.h"

#include "python/node.h"

namespace gridlock::python {
namespace {

// `getattr(obj, "name"[, default])`: obj's chain and the literal.
std::optional<Chain> getattrChain(const SyntaxTree& tree, Node call, const IsBuiltin& isBuiltin) {
  Node fn = field<"function">(call);
  if (!is<"identifier">(fn) || tree.text(fn) != "getattr" || !isBuiltin("getattr", fn))
    return std::nullopt;
  Node args = field<"arguments">(call);
  if (!is<"argument_list">(args)) return std::nullopt;
  NodeList list = namedChildren(args);
  if (list.size() < 2 || list.size() > 3) return std::nullopt;
  Node object = list[0], name = list[1];
  if (is<"keyword_argument">(object) || is<"keyword_argument">(name)) return std::nullopt;
  std::optional<std::string> literal = literalString(tree, name);
  if (!literal || literal->empty()) return std::nullopt;
  std::optional<Chain> c = chainOf(tree, object, isBuiltin);
  if (!c) return std::nullopt;
  c->names.push_back(*literal);
  c->nodes.push_back(name);
  return c;
}

// `globals()["name"]`.
std::optional<Chain> globalsItem(const SyntaxTree& tree, Node sub, const IsBuiltin& isBuiltin) {
  Node value = unparen(field<"value">(sub));
  if (!is<"call">(value)) return std::nullopt;
  Node fn = field<"function">(value), args = field<"arguments">(value);
  if (!is<"identifier">(fn) || tree.text(fn) != "globals" || !isBuiltin("globals", fn) ||
      !is<"argument_list">(args) || args.namedChildCount() != 0)
    return std::nullopt;
  Node key = field<"subscript">(sub);
  if (sub.namedChildCount() != 2) return std::nullopt;  // one key, no slice list
  std::optional<std::string> literal = literalString(tree, key);
  if (!literal || literal->empty()) return std::nullopt;
  Chain c;
  c.names.push_back(*literal);
  c.nodes.push_back(key);
  c.globalsItem = true;
  return c;
}

}  // namespace

std::optional<std::string> literalString(const SyntaxTree& tree, Node n) {
  n = unparen(n);
  if (!is<"string">(n)) return std::nullopt;
  std::string content;
  for (Node part : namedChildren(n)) {
    if (is<"string_start">(part)) {
      std::string_view start = tree.text(part);
      for (char p : start.substr(0, start.find_first_of("'\"")))
        if (p != 'r' && p != 'R' && p != 'u' && p != 'U') return std::nullopt;  // bytes, f
    } else if (is<"string_content">(part)) {
      if (part.namedChildCount() != 0) return std::nullopt;  // escapes
      content += tree.text(part);
    } else if (!is<"string_end">(part)) {
      return std::nullopt;  // an interpolation
    }
  }
  return content;
}

std::optional<Chain> chainOf(const SyntaxTree& tree, Node n, const IsBuiltin& isBuiltin) {
  n = unparen(n);
  if (is<"identifier">(n)) {
    Chain c;
    c.names.emplace_back(tree.text(n));
    c.nodes.push_back(n);
    return c;
  }
  if (is<"attribute">(n)) {
    std::optional<Chain> c = chainOf(tree, field<"object">(n), isBuiltin);
    if (!c) return std::nullopt;
    Node attr = field<"attribute">(n);
    c->names.emplace_back(tree.text(attr));
    c->nodes.push_back(attr);
    return c;
  }
  if (is<"call">(n)) return getattrChain(tree, n, isBuiltin);
  if (is<"subscript">(n)) return globalsItem(tree, n, isBuiltin);
  return std::nullopt;
}

}  // namespace gridlock::python
