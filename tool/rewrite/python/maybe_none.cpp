#include "rewrite/python/maybe_none.h"

#include "rewrite/python/scope_values.h"
#include "rewrite/python/ts_node.h"

#include <set>
#include <utility>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

// Names assigned through more names than this are not followed (and may be None).
constexpr int kMaxDepth = 16;

bool isLiteral(TSNode e) {
  return is<"integer">(e) || is<"float">(e) || is<"string">(e) || is<"concatenated_string">(e) ||
         is<"true">(e) || is<"false">(e) || is<"list">(e) || is<"tuple">(e) ||
         is<"dictionary">(e) || is<"set">(e) || is<"list_comprehension">(e) ||
         is<"dictionary_comprehension">(e) || is<"set_comprehension">(e) ||
         is<"generator_expression">(e) || is<"lambda">(e) || is<"comparison_operator">(e) ||
         is<"not_operator">(e) || is<"unary_operator">(e) || is<"binary_operator">(e) ||
         is<"ellipsis">(e);
}

// Whether a target (`a, b`, `(a, [b])`, `*rest`) binds `name` inside a tuple or list pattern.
bool unpacks(const PySource& src, TSNode target, const std::string& name) {
  if (!is<"pattern_list">(target) && !is<"tuple_pattern">(target) && !is<"list_pattern">(target) &&
      !is<"tuple">(target) && !is<"list">(target) && !is<"list_splat_pattern">(target))
    return false;
  for (TSNode c : namedChildren(target))
    if ((is<"identifier">(c) && src.text(c) == name) || unpacks(src, c, name)) return true;
  return false;
}

// Whether a `with` statement binds `name` (`with f() as name:`, or in a tuple after `as`).
bool withBinds(const PySource& src, TSNode with, const std::string& name) {
  for (TSNode clause : namedChildren(with)) {
    if (!is<"with_clause">(clause)) continue;
    for (TSNode item : namedChildren(clause)) {
      TSNode value = field<"value">(item);
      if (!is<"as_pattern">(value)) continue;
      TSNode alias = field<"alias">(value);
      for (TSNode t : namedChildren(alias)) {
        if ((is<"identifier">(t) && src.text(t) == name) || unpacks(src, t, name)) return true;
      }
      if (src.text(alias) == name) return true;
    }
  }
  return false;
}

// Whether a `global` or `nonlocal` statement names `name`.
bool declares(const PySource& src, TSNode statement, const std::string& name) {
  for (TSNode c : namedChildren(statement))
    if (src.text(c) == name) return true;
  return false;
}

std::string quoted(std::string_view s) { return "`" + std::string(s) + "`"; }

class Judge {
 public:
  Judge(const PySource& src, const rules::PythonRewriteRule& rule) : src_(src), rule_(rule) {}

  std::string expression(TSNode e, TSNode def, int depth) {
    e = ts::unparen(e);
    if (depth > kMaxDepth) return "assigned through too many names to follow";
    if (is<"keyword_argument">(e)) return expression(field<"value">(e), def, depth);
    if (is<"none">(e)) return "None";
    if (isLiteral(e)) return "";
    if (is<"named_expression">(e)) return expression(field<"value">(e), def, depth);
    if (is<"boolean_operator">(e)) {
      // `a or b` is b whenever a is falsy; `a and b` may be either.
      std::string right = expression(field<"right">(e), def, depth);
      if (src_.text(field<"operator">(e)) == "or" || !right.empty()) return right;
      return expression(field<"left">(e), def, depth);
    }
    if (is<"conditional_expression">(e)) {
      std::vector<TSNode> parts = namedChildren(e);  // body, condition, else
      if (parts.size() != 3) return "an expression the scan does not follow";
      std::string body = expression(parts[0], def, depth);
      return body.empty() ? expression(parts[2], def, depth) : body;
    }
    if (is<"call">(e)) return call(e, def, depth);
    if (is<"identifier">(e)) return name(std::string(src_.text(e)), def, e, depth + 1);
    if (is<"attribute">(e)) return attribute(e, def, depth);
    if (is<"subscript">(e)) return quoted(src_.text(e)) + " is an item the scan does not follow";
    return quoted(src_.text(e)) + " is an expression the scan does not follow";
  }

 private:
  // Why a target assigned `right` may be None, from why `right` may be ("" for a value).
  std::string assignedWhy(std::string_view target, TSNode right, const std::string& why) const {
    if (why.empty()) return "";
    if (why == "None") return quoted(target) + " is assigned None";
    return quoted(target) + " is assigned " + quoted(src_.text(right)) + ": " + why;
  }

  std::string attribute(TSNode e, TSNode def, int depth) {
    TSNode object = field<"object">(e);
    std::string holder(src_.text(object));
    if (holder.rfind("self.", 0) == 0) holder = holder.substr(5);
    for (const std::string& c : rule_.collection)
      if (c == holder && (is<"identifier">(object) || is<"attribute">(object))) return "";
    if (!ts_node_is_null(def)) {
      // The last assignment of the same attribute before it, in a block around it.
      TSNode last{};
      statementsUnder(field<"body">(def), [&](TSNode s) {
        TSNode a = assignmentOf(s);
        if (!ts_node_is_null(a) && src_.text(field<"left">(a)) == src_.text(e) && dominates(s, e))
          last = field<"right">(a);
      });
      if (!ts_node_is_null(last))
        return assignedWhy(src_.text(e), last, expression(last, def, depth + 1));
    }
    if (is<"identifier">(object) && src_.text(object) == "self" && !ts_node_is_null(def))
      return selfField(std::string(src_.text(field<"attribute">(e))), def, depth + 1);
    return quoted(src_.text(e)) + " is an attribute of an object the scan cannot type";
  }

  // A call holds what its function returns, which the scan does not read: taken as a value
  // (an accessor, a constructor, `.size()`), except the two lookups that return None for a
  // missing key.
  std::string call(TSNode e, TSNode def, int depth) {
    TSNode fn = field<"function">(e);
    std::vector<TSNode> args = namedChildren(field<"arguments">(e));
    if (is<"identifier">(fn) && src_.text(fn) == "getattr" && args.size() == 3)
      return expression(args[2], def, depth).empty() ? ""
                                                     : quoted(src_.text(e)) + " falls back to None";
    if (is<"attribute">(fn) && src_.text(field<"attribute">(fn)) == "get" && !args.empty() &&
        args.size() <= 2)
      return args.size() == 1 || !expression(args[1], def, depth).empty()
                 ? quoted(src_.text(e)) + " is None for a missing key"
                 : "";
    return "";
  }

  // What the name holds at `at`: a parameter, the def's assignments of it, else an outer
  // scope's (a name no scope assigns is an import, a def, a class or a builtin).
  std::string name(const std::string& n, TSNode def, TSNode at, int depth) {
    TSNode scope = ts_node_is_null(def) ? src_.root() : def;
    if (!visiting_.emplace(ts_node_start_byte(scope), n).second) return "";
    bool bound = false;
    std::string why;
    if (!ts_node_is_null(def)) {
      for (const PyParam& p : src_.params(def)) {
        if (p.name != n) continue;
        bound = true;
        if (p.hasDefault && p.defaultText == "None")
          why = quoted(n) + " defaults to None in " + std::string(src_.text(field<"name">(def)));
      }
    }
    auto visit = [&](TSNode s) {
      if (!why.empty()) return;
      std::string found = assigned(s, n, def, depth);
      if (found != kUnbound) {
        bound = true;
        why = found;
      }
    };
    TSNode body = ts_node_is_null(def) ? src_.root() : field<"body">(def);
    if (ts_node_is_null(def))
      for (TSNode c : namedChildren(body)) visit(c);
    statementsUnder(body, visit);
    visiting_.erase({ts_node_start_byte(scope), n});
    if (!why.empty() && !ts_node_is_null(def) && checkedBefore(src_, def, at, n)) return "";
    if (bound || ts_node_is_null(def)) return why;
    TSNode outer = PySource::enclosingDef(def);
    return name(n, outer, def, depth);
  }

  static inline const std::string kUnbound = "\x01";

  // What statement `s` binds `n` to: kUnbound when it does not bind it, "" for a value.
  std::string assigned(TSNode s, const std::string& n, TSNode def, int depth) {
    if (TSNode a = assignmentOf(s); !ts_node_is_null(a)) {
      TSNode left = field<"left">(a), right = field<"right">(a);
      if (is<"identifier">(left) && src_.text(left) == n) {
        if (ts_node_is_null(right)) return kUnbound;  // `x: int` binds nothing
        return assignedWhy(n, right, expression(right, def, depth));
      }
      if (!is<"identifier">(left) && unpacks(src_, left, n)) {
        // `a, b = 2, x`: element by element when both sides are flat and the same length.
        std::vector<TSNode> targets = namedChildren(left), values = namedChildren(right);
        if ((is<"expression_list">(right) || is<"tuple">(right)) && targets.size() == values.size())
          for (size_t k = 0; k < targets.size(); ++k)
            if (is<"identifier">(targets[k]) && src_.text(targets[k]) == n)
              return assignedWhy(n, values[k], expression(values[k], def, depth));
        return quoted(n) + " is unpacked from " + quoted(src_.text(right)) +
               ", which the scan does not follow";
      }
      return kUnbound;
    }
    if (is<"for_statement">(s) &&
        (src_.text(field<"left">(s)) == n || unpacks(src_, field<"left">(s), n)))
      return quoted(n) + " is a loop's target";
    if (is<"with_statement">(s) && withBinds(src_, s, n)) return quoted(n) + " is a `with` target";
    if ((is<"global_statement">(s) || is<"nonlocal_statement">(s)) && declares(src_, s, n))
      return quoted(n) + " is a global, which any function may set";
    return kUnbound;
  }

  // `self.<attr>`: a value when its class assigns it only values, one of them among
  // `__init__`'s own statements (not under a condition).
  std::string selfField(const std::string& attr, TSNode def, int depth) {
    TSNode cls = PySource::classOf(def);
    std::string what = quoted("self." + attr);
    if (ts_node_is_null(cls)) return what + " is an attribute of an object the scan cannot type";
    TSNode init = src_.method(cls, "__init__");
    TSNode statement{};
    if (ts_node_is_null(init) || ts_node_is_null(setInInit(src_, init, attr, &statement)))
      return what + " is not set by every run of its class's __init__";
    for (TSNode c : namedChildren(field<"body">(cls))) {
      TSNode method = is<"decorated_definition">(c) ? field<"definition">(c) : c;
      if (!is<"function_definition">(method)) continue;
      std::string why;
      statementsUnder(field<"body">(method), [&](TSNode s) {
        TSNode a = assignmentOf(s);
        if (!why.empty() || ts_node_is_null(a) || !isSelfAttribute(src_, field<"left">(a), attr))
          return;
        std::string inner = expression(field<"right">(a), method, depth);
        if (inner == "None")
          why = what + " is set to None in " + std::string(src_.text(field<"name">(method)));
        else if (!inner.empty())
          why = what + " is set to " + quoted(src_.text(field<"right">(a))) + " in " +
                std::string(src_.text(field<"name">(method))) + ": " + inner;
      });
      if (!why.empty()) return why;
    }
    return "";
  }

  const PySource& src_;
  const rules::PythonRewriteRule& rule_;
  std::set<std::pair<unsigned, std::string>> visiting_;  // (scope's first byte, name)
};

}  // namespace

std::string mayBeNone(const PySource& src, TSNode arg, TSNode def,
                      const rules::PythonRewriteRule& rule) {
  return Judge(src, rule).expression(arg, def, 0);
}

}  // namespace gridlock::rewrite::py
