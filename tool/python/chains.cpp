#include "python/chains.h"

#include "python/node.h"

namespace gridlock::python {
namespace {

// `getattr(obj, "name"[, default])`: obj's chain and the literal.
std::optional<Chain> getattrChain(const SyntaxTree& tree, TSNode call, const IsBuiltin& isBuiltin) {
  TSNode fn = field(call, "function");
  if (!is(fn, "identifier") || tree.text(fn) != "getattr" || !isBuiltin("getattr", fn))
    return std::nullopt;
  TSNode args = field(call, "arguments");
  if (!is(args, "argument_list")) return std::nullopt;
  std::vector<TSNode> list = namedChildren(args);
  if (list.size() < 2 || list.size() > 3) return std::nullopt;
  TSNode object = list[0], name = list[1];
  if (is(object, "keyword_argument") || is(name, "keyword_argument")) return std::nullopt;
  std::optional<std::string> literal = literalString(tree, name);
  if (!literal || literal->empty()) return std::nullopt;
  std::optional<Chain> c = chainOf(tree, object, isBuiltin);
  if (!c) return std::nullopt;
  c->names.push_back(*literal);
  c->nodes.push_back(name);
  return c;
}

// `globals()["name"]`.
std::optional<Chain> globalsItem(const SyntaxTree& tree, TSNode sub, const IsBuiltin& isBuiltin) {
  TSNode value = unparen(field(sub, "value"));
  if (!is(value, "call")) return std::nullopt;
  TSNode fn = field(value, "function"), args = field(value, "arguments");
  if (!is(fn, "identifier") || tree.text(fn) != "globals" || !isBuiltin("globals", fn) ||
      !is(args, "argument_list") || ts_node_named_child_count(args) != 0)
    return std::nullopt;
  TSNode key = field(sub, "subscript");
  if (ts_node_named_child_count(sub) != 2) return std::nullopt;  // one key, no slice list
  std::optional<std::string> literal = literalString(tree, key);
  if (!literal || literal->empty()) return std::nullopt;
  Chain c;
  c.names.push_back(*literal);
  c.nodes.push_back(key);
  c.globalsItem = true;
  return c;
}

}  // namespace

std::optional<std::string> literalString(const SyntaxTree& tree, TSNode n) {
  n = unparen(n);
  if (!is(n, "string")) return std::nullopt;
  std::string content;
  for (TSNode part : namedChildren(n)) {
    if (is(part, "string_start")) {
      std::string_view start = tree.text(part);
      for (char p : start.substr(0, start.find_first_of("'\"")))
        if (p != 'r' && p != 'R' && p != 'u' && p != 'U') return std::nullopt;  // bytes, f
    } else if (is(part, "string_content")) {
      if (ts_node_named_child_count(part) != 0) return std::nullopt;  // escapes
      content += tree.text(part);
    } else if (!is(part, "string_end")) {
      return std::nullopt;  // an interpolation
    }
  }
  return content;
}

std::optional<Chain> chainOf(const SyntaxTree& tree, TSNode n, const IsBuiltin& isBuiltin) {
  n = unparen(n);
  if (is(n, "identifier")) {
    Chain c;
    c.names.emplace_back(tree.text(n));
    c.nodes.push_back(n);
    return c;
  }
  if (is(n, "attribute")) {
    std::optional<Chain> c = chainOf(tree, field(n, "object"), isBuiltin);
    if (!c) return std::nullopt;
    TSNode attr = field(n, "attribute");
    c->names.emplace_back(tree.text(attr));
    c->nodes.push_back(attr);
    return c;
  }
  if (is(n, "call")) return getattrChain(tree, n, isBuiltin);
  if (is(n, "subscript")) return globalsItem(tree, n, isBuiltin);
  return std::nullopt;
}

}  // namespace gridlock::python
