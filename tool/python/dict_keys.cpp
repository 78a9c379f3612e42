#include "python/dict_keys.h"

#include "python/chains.h"
#include "python/node.h"

#include <algorithm>

namespace gridlock::python {
namespace {

class Seer {
 public:
  Seer(const SyntaxTree& tree, const std::function<bool(const std::string&)>& isParam)
      : tree_(tree), isParam_(isParam) {}

  // A key and its value.
  void add(std::string name, Node value) {
    value = unparen(value);
    Call::DictKey k;
    k.name = std::move(name);
    k.isNone = is<"none">(value);
    if (is<"identifier">(value) && isParam_(std::string(tree_.text(value))))
      k.forwardedName = tree_.text(value);
    auto same = [&](const Call::DictKey& o) { return o.name == k.name; };
    out.keys.erase(std::remove_if(out.keys.begin(), out.keys.end(), same), out.keys.end());
    out.keys.push_back(std::move(k));
  }

  // `{"k": v, ...}` or `dict(k=v, ...)`: its keys; whether it holds no others.
  bool literal(Node n, bool dictIsBuiltin) {
    n = unparen(n);
    if (is<"dictionary">(n)) {
      bool all = true;
      for (Node item : namedChildren(n)) {
        std::optional<std::string> key;
        if (is<"pair">(item)) key = literalString(tree_, field<"key">(item));
        if (key)
          add(*key, field<"value">(item));
        else
          all = false;  // `**other` inside, or a key that is not a literal
      }
      return all;
    }
    Node fn = field<"function">(n), args = field<"arguments">(n);
    if (!is<"call">(n) || !is<"identifier">(fn) || tree_.text(fn) != "dict" || !dictIsBuiltin ||
        !is<"argument_list">(args))
      return false;
    bool all = true;
    for (Node a : namedChildren(args)) {
      if (is<"keyword_argument">(a))
        add(std::string(tree_.text(field<"name">(a))), field<"value">(a));
      else
        all = false;  // dict(other), dict(**other)
    }
    return all;
  }

  // One use of the dict's name `n`: keys it adds; false when it may change the dict otherwise.
  bool use(Node n, Node binding) {
    Node p = n.parent();
    if (same(n, binding) || is<"dictionary_splat">(p)) return true;
    if (is<"comparison_operator">(p)) return true;  // `"k" in d`
    if (is<"attribute">(p) && same(field<"object">(p), n)) {
      std::string_view m = tree_.text(field<"attribute">(p));
      return m == "get" || m == "items" || m == "keys" || m == "values" || m == "copy";
    }
    if (!is<"subscript">(p) || !same(field<"value">(p), n)) return false;
    Node up = p.parent();
    if (!is<"assignment">(up) || !same(field<"left">(up), p))
      return !is<"delete_statement">(up) && !is<"augmented_assignment">(up);  // a read of a key
    std::optional<std::string> key = literalString(tree_, field<"subscript">(p));
    if (!key || p.namedChildCount() != 2) return false;
    add(*key, field<"right">(up));
    return true;
  }

  SeenKeys out;

 private:
  const SyntaxTree& tree_;
  const std::function<bool(const std::string&)>& isParam_;
};

}  // namespace

std::optional<SeenKeys> dictKeys(const SyntaxTree& tree, const ScopeTable& scopes, Scope* scope,
                                 Node scopeNode, Node value,
                                 const std::function<bool(const std::string&)>& isParam) {
  Seer seer(tree, isParam);
  value = unparen(value);
  const bool dictIsBuiltin = !scopes.lookup(scope, "dict");
  if (!is<"identifier">(value)) {
    if (!is<"dictionary">(value) && !is<"call">(value)) return std::nullopt;
    seer.out.complete = seer.literal(value, dictIsBuiltin);
    if (seer.out.keys.empty() && !seer.out.complete) return std::nullopt;
    return seer.out;
  }
  // A name: bound once, in this scope, as a parameter or to a dict built in sight.
  const std::string name(tree.text(value));
  if (scopes.lookup(scope, name) != scope || scopeNode.isNull()) return std::nullopt;
  const std::vector<LocalBinding>& bindings = scope->bindings.at(name);
  if (bindings.size() != 1) return std::nullopt;
  const LocalBinding& b = bindings[0];
  bool complete = false;
  Node binding;  // the name as the assignment writes it
  if (b.kind == LocalBinding::Kind::Other) {
    if (b.value.isNull()) return std::nullopt;
    binding = field<"left">(b.value.parent());
    complete = seer.literal(b.value, dictIsBuiltin);
    if (!complete && seer.out.keys.empty() && !is<"dictionary">(unparen(b.value))) return {};
  } else if (b.kind != LocalBinding::Kind::Param) {
    return std::nullopt;
  }
  Node body = is<"module">(scopeNode) ? scopeNode : field<"body">(scopeNode);
  const FlatTree& nodes = tree.flat();
  for (uint32_t i = body.id(); i < body.subtreeEnd(); ++i) {
    Node n = nodes.at(i);
    if (is<"identifier">(n) && tree.text(n) == name && !seer.use(n, binding)) complete = false;
  }
  seer.out.complete = complete && b.kind == LocalBinding::Kind::Other;
  return seer.out;
}

}  // namespace gridlock::python
