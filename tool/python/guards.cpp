#include "python/guards.h"

#include "python/chains.h"
#include "python/node.h"

#include <functional>
#include <optional>
#include <string_view>

namespace gridlock::python {
namespace {

using facts::Expect;

std::string_view operatorOf(Node n) {
  for (Node op : n.children())
    if (!op.isNamed()) return op.type();
  return {};
}

// One fact a condition gives: what `holder` is where it holds.
struct Fact {
  std::string holder;
  bool presence = false;  // `is None`, `is not None`, hasattr; false: a truth test
  Expect expect = Expect::NotNone;
};
using Facts = std::vector<Fact>;

bool isMissing(const Fact& f) { return f.expect == Expect::None || f.expect == Expect::False; }

class Finder {
 public:
  Finder(const SyntaxTree& tree, const std::vector<Node>& path) : tree_(tree), path_(path) {
    read_ = path_.back();
    if (path_.size() >= 2 && is<"call">(path_[path_.size() - 2]) &&
        same(field<"function">(path_[path_.size() - 2]), read_))
      read_ = path_[path_.size() - 2];
  }

  Conditions run() {
    for (size_t i = path_.size(); i-- > 1;) {
      Node p = path_[i - 1];
      if (is<"function_definition">(p) || is<"lambda">(p) || is<"class_definition">(p) ||
          is<"module">(p))
        break;
      at(i - 1);
    }
    return std::move(out_);
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

  // `h OP None` or `None OP h`: h is None (`is`, `==`) or not (`is not`, `!=`) where `cond`
  // is true.
  Facts comparedWithNone(Node cmp, bool positive) const {
    NodeList operands = namedChildren(cmp);
    if (operands.size() != 2) return {};
    std::string_view op = operatorOf(cmp);
    bool none = op == "is" || op == "==";
    if (!none && op != "is not" && op != "!=") return {};
    // `(g := expr) is None` tests what the walrus binds.
    auto tested = [](Node n) {
      n = unparen(n);
      return is<"named_expression">(n) ? field<"name">(n) : n;
    };
    Node l = tested(operands[0]), r = tested(operands[1]);
    std::optional<std::string> h;
    if (is<"none">(r)) h = holderOf(l);
    if (!h && is<"none">(l)) h = holderOf(r);
    if (!h) return {};
    return {{*h, true, none == positive ? Expect::None : Expect::NotNone}};
  }

  // What holds where `cond` is true (`positive`) or false: a conjunction of facts; nothing
  // known is no fact (a disjunction gives none).
  Facts facts(Node cond, bool positive) const {
    cond = unparen(cond);
    if (is<"comparison_operator">(cond)) return comparedWithNone(cond, positive);
    if (is<"not_operator">(cond)) return facts(field<"argument">(cond), !positive);
    if (is<"boolean_operator">(cond)) {
      // `a and b` true, `a or b` false: both hold; the others are disjunctions.
      if ((operatorOf(cond) == "and") != positive) return {};
      Facts l = facts(field<"left">(cond), positive), r = facts(field<"right">(cond), positive);
      l.insert(l.end(), r.begin(), r.end());
      return l;
    }
    if (auto h = namedAttribute(cond, "hasattr", 2))
      return {{*h, true, positive ? Expect::NotNone : Expect::None}};
    if (auto h = holderOf(cond)) return {{*h, false, positive ? Expect::True : Expect::False}};
    return {};
  }

  // The values a disjunction says one of is missing, when each of its operands compares
  // one with None: `a is None or b is None` true, `a is not None and b is not None` false.
  std::vector<Fact> eitherMissing(Node cond, bool positive) const {
    cond = unparen(cond);
    if (is<"not_operator">(cond)) return eitherMissing(field<"argument">(cond), !positive);
    if (!is<"boolean_operator">(cond) || (operatorOf(cond) == "or") != positive) return {};
    std::vector<Fact> out;
    for (Node side : {field<"left">(cond), field<"right">(cond)}) {
      std::vector<Fact> m = eitherMissing(side, positive);
      if (m.empty())
        for (const Fact& f : facts(side, positive))
          if (f.presence && f.expect == Expect::None && m.empty()) m.push_back(f);
      if (m.empty()) return {};
      out.insert(out.end(), m.begin(), m.end());
    }
    return out;
  }

  bool isHolder(Node n, const std::string& holder) const { return holderOf(n) == holder; }

  // `holder`, a chain under it (`h.pp`), or a call of one (`h.size()`, `h.pp.rank()`).
  bool derivedFrom(Node n, const std::string& holder) const {
    n = unparen(n);
    std::optional<std::string> h = holderOf(n);
    if (!h && is<"call">(n)) return derivedFrom(field<"function">(n), holder);
    return h && (*h == holder || h->starts_with(holder + "."));
  }

  bool isRead(Node n) const { return same(unparen(n), read_); }

  // The assignment below path_[i] whose value is the read itself, or null.
  Node assignmentOfRead(size_t i) const {
    for (size_t k = i + 1; k < path_.size(); ++k)
      if (is<"assignment">(path_[k]) && isRead(field<"right">(path_[k]))) return path_[k];
    return {};
  }

  // Whether `block` has a statement `target = <derived from holder>` of its own.
  bool assignsFrom(Node block, std::string_view target, const std::string& holder) const {
    for (Node s : namedChildren(block)) {
      if (!is<"expression_statement">(s)) continue;
      Node a = s.namedChildCount() == 1 ? s.namedChild(0) : Node{};
      if (is<"assignment">(a) && tree_.text(field<"left">(a)) == target &&
          derivedFrom(field<"right">(a), holder))
        return true;
    }
    return false;
  }

  // The branches of if-statement `s`: its consequence, then each elif's and the else's body.
  std::vector<Node> branches(Node s) const {
    std::vector<Node> out{field<"consequence">(s)};
    for (Node c : namedChildren(s))
      if (is<"elif_clause">(c) || is<"else_clause">(c))
        out.push_back(is<"elif_clause">(c) ? field<"consequence">(c) : field<"body">(c));
    return out;
  }

  // In branch `mine` of if-statement `s` (path_[i]'s subtree holds the read): whether the
  // read's value stands for `holder`: assigned to it, or to a name another branch assigns
  // from it.
  bool flowsInIf(size_t i, Node s, Node mine, const std::string& holder) const {
    Node a = assignmentOfRead(i);
    if (a.isNull()) return false;
    if (isHolder(field<"left">(a), holder)) return true;
    std::string_view target = tree_.text(field<"left">(a));
    if (is<"if_statement">(s))
      for (Node b : branches(s))
        if (!same(b, mine) && assignsFrom(b, target, holder)) return true;
    return false;
  }

  void add(const Facts& fs, unsigned at, const std::vector<Fact>& either,
           const std::function<bool(const std::string&)>& flows) {
    for (const Fact& f : fs) {
      if (f.holder.find('.') == std::string::npos) out_.tests.push_back({f.holder, f.expect});
      if (isMissing(f)) out_.guards.push_back({f.holder, at, f.presence, flows(f.holder), {}});
    }
    if (either.empty()) return;
    GuardCandidate g{either[0].holder, at, true, flows(either[0].holder), {}};
    for (size_t k = 1; k < either.size(); ++k) g.others.push_back(either[k].holder);
    out_.guards.push_back(std::move(g));
  }

  // Whether statement `s` ends in a return, raise, continue or break: what follows it in its
  // block runs only when its test was false.
  static bool leaves(Node s) {
    Node body = field<"consequence">(s);
    NodeList stmts = namedChildren(body);
    if (stmts.size() == 0) return false;
    Node last = stmts[stmts.size() - 1];
    return is<"return_statement">(last) || is<"raise_statement">(last) ||
           is<"continue_statement">(last) || is<"break_statement">(last);
  }

  bool hasAlternative(Node s) const {
    for (Node c : namedChildren(s))
      if (is<"elif_clause">(c) || is<"else_clause">(c)) return true;
    return false;
  }

  // What the construct path_[i] says about the read below it (in path_[i + 1]).
  void at(size_t i) {
    Node p = path_[i], child = path_[i + 1];
    unsigned start = p.startByte();
    if (is<"boolean_operator">(p) && same(child, field<"right">(p))) {
      bool orOp = operatorOf(p) == "or";
      Node left = field<"left">(p);
      add(facts(left, !orOp), start, {}, [&](const std::string& h) {
        return orOp && isRead(field<"right">(p)) && isHolder(left, h);
      });
      return;
    }
    if (is<"conditional_expression">(p)) {
      NodeList parts = namedChildren(p);  // value, condition, alternative
      if (parts.size() != 3 || same(child, parts[1])) return;
      bool value = same(child, parts[0]);
      Node other = value ? parts[2] : parts[0];
      add(facts(parts[1], value), start, eitherMissing(parts[1], value),
          [&](const std::string& h) { return isRead(child) && derivedFrom(other, h); });
      return;
    }
    if (is<"if_statement">(p) || is<"elif_clause">(p)) {
      // An elif's branches are its if-statement's.
      Node s = is<"if_statement">(p) ? p : i > 0 ? path_[i - 1] : Node{};
      if (same(child, field<"consequence">(p))) {
        Node cond = field<"condition">(p);
        add(facts(cond, true), start, eitherMissing(cond, true),
            [&](const std::string& h) { return flowsInIf(i, s, child, h); });
        return;
      }
      if (!is<"if_statement">(p) || (!is<"else_clause">(child) && !is<"elif_clause">(child)))
        return;
      // An elif's or the else's body runs only when every test before it was false.
      Node mine = is<"elif_clause">(child) ? field<"consequence">(child) : field<"body">(child);
      auto flows = [&](const std::string& h) { return flowsInIf(i + 1, s, mine, h); };
      Node cond = field<"condition">(s);
      add(facts(cond, false), start, eitherMissing(cond, false), flows);
      for (Node c : namedChildren(s)) {
        if (same(c, child)) break;
        if (!is<"elif_clause">(c)) continue;
        Node e = field<"condition">(c);
        add(facts(e, false), c.startByte(), eitherMissing(e, false), flows);
      }
      return;
    }
    if (is<"block">(p)) {
      // `if g is not None: return g` before the read's statement: what follows runs only
      // without g. The nearest such `if` first: it is the innermost test.
      std::vector<Node> before;
      for (Node s : namedChildren(p)) {
        if (same(s, child)) break;
        if (is<"if_statement">(s) && !hasAlternative(s) && leaves(s)) before.push_back(s);
      }
      for (auto it = before.rbegin(); it != before.rend(); ++it) {
        Node s = *it;
        Node cond = field<"condition">(s);
        NodeList body = namedChildren(field<"consequence">(s));
        Node last = body[body.size() - 1];
        add(facts(cond, false), s.startByte(), eitherMissing(cond, false),
            [&](const std::string& h) {
              NodeList value = namedChildren(last);
              NodeList mine = namedChildren(child);
              return is<"return_statement">(last) && value.size() == 1 &&
                     derivedFrom(value[0], h) && is<"return_statement">(child) &&
                     mine.size() == 1 && isRead(mine[0]);
            });
      }
    }
  }

  const SyntaxTree& tree_;
  const std::vector<Node>& path_;
  Node read_;
  Conditions out_;
};

}  // namespace

Conditions conditionsOf(const SyntaxTree& tree, const std::vector<Node>& path) {
  return Finder(tree, path).run();
}

}  // namespace gridlock::python
