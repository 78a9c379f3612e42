#include "rewrite/python/autograd.h"

#include "rewrite/python/scope_values.h"
#include "rewrite/python/supply.h"
#include "rewrite/python/ts_node.h"

#include <functional>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

// The return statements of a def's body, not those of a nested def, class or lambda.
void returnsUnder(TSNode n, const std::function<void(TSNode)>& f) {
  for (TSNode c : namedChildren(n)) {
    if (is<"function_definition">(c) || is<"class_definition">(c) || is<"lambda">(c)) continue;
    if (is<"return_statement">(c)) f(c);
    returnsUnder(c, f);
  }
}

bool blockExits(TSNode block);

// Whether a statement never completes normally: it returns or raises on every path.
bool exits(TSNode st) {
  if (is<"return_statement">(st) || is<"raise_statement">(st)) return true;
  if (is<"if_statement">(st)) {
    if (!blockExits(field<"consequence">(st))) return false;
    bool otherwise = false;
    for (TSNode c : namedChildren(st)) {
      if (is<"elif_clause">(c) && !blockExits(field<"consequence">(c))) return false;
      if (is<"else_clause">(c)) otherwise = blockExits(field<"body">(c));
    }
    return otherwise;
  }
  if (is<"with_statement">(st)) return blockExits(field<"body">(st));
  if (is<"try_statement">(st)) {
    bool handled = blockExits(field<"body">(st));
    for (TSNode c : namedChildren(st)) {
      if (is<"finally_clause">(c))
        for (TSNode b : namedChildren(c))
          if (is<"block">(b) && blockExits(b)) return true;
      if (is<"except_clause">(c) || is<"except_group_clause">(c))
        for (TSNode b : namedChildren(c))
          if (is<"block">(b)) handled = handled && blockExits(b);
    }
    return handled;
  }
  return false;
}

bool blockExits(TSNode block) {
  std::vector<TSNode> statements = namedChildren(block);
  return !statements.empty() && exits(statements.back());
}

// What a value may be at run time, as far as a backward's gradients go: one value, a tuple, or
// either on different paths.
enum class Shape { Single, Tuple, Mixed };

Shape combine(Shape a, Shape b) { return a == b ? a : Shape::Mixed; }

// The shapes of values in a def of the tree, following its own assignments and the functions of
// the tree it returns the result of (their returns, a few calls deep).
class Shapes {
 public:
  explicit Shapes(PyState& s) : s_(s) {}

  Shape of(const std::string& file, const PySource& src, TSNode def, TSNode e, int depth) {
    e = ts::unparen(e);
    if (depth > kDepth) return Shape::Single;
    if (is<"tuple">(e) || is<"expression_list">(e)) return Shape::Tuple;
    if (is<"conditional_expression">(e)) {
      std::vector<TSNode> parts = namedChildren(e);  // body, condition, else
      if (parts.size() != 3) return Shape::Mixed;
      return combine(of(file, src, def, parts[0], depth + 1),
                     of(file, src, def, parts[2], depth + 1));
    }
    if (is<"binary_operator">(e)) {
      // `(None,) + grads`, `(None,) * n`: a tuple when either side is one.
      Shape l = of(file, src, def, field<"left">(e), depth + 1);
      Shape r = of(file, src, def, field<"right">(e), depth + 1);
      return l == Shape::Tuple || r == Shape::Tuple ? Shape::Tuple : combine(l, r);
    }
    if (is<"identifier">(e)) return assigned(file, src, def, std::string(src.text(e)), depth);
    if (is<"call">(e)) return called(file, src, e, depth);
    return Shape::Single;
  }

  // What `def` returns: each return's value (a return of nothing or the end of the body: None).
  Shape returns(const std::string& file, const PySource& src, TSNode def, int depth) {
    std::optional<Shape> out;
    returnsUnder(field<"body">(def), [&](TSNode r) {
      std::vector<TSNode> v = namedChildren(r);
      Shape s = v.empty() ? Shape::Single : of(file, src, def, v[0], depth + 1);
      out = out ? combine(*out, s) : s;
    });
    return out.value_or(Shape::Single);
  }

 private:
  static constexpr int kDepth = 6;
  PyState& s_;

  // A name the def assigns (`grads = (g, None)`): what each assignment gives it; a parameter or
  // a name assigned otherwise (a loop's element, an unpacked one) is one value.
  Shape assigned(const std::string& file, const PySource& src, TSNode def, const std::string& name,
                 int depth) {
    std::optional<Shape> out;
    statementsUnder(field<"body">(def), [&](TSNode st) {
      TSNode a = assignmentOf(st);
      if (ts_node_is_null(a) || src.text(field<"left">(a)) != name) return;
      Shape s = of(file, src, def, field<"right">(a), depth + 1);
      out = out ? combine(*out, s) : s;
    });
    return out.value_or(Shape::Single);
  }

  // A call's value: `tuple(...)` and the tensor methods that split (`torch.split`, `x.chunk`)
  // give tuples; a function of the tree, what it returns; anything else one value.
  Shape called(const std::string& file, const PySource& src, TSNode call, int depth) {
    TSNode fn = field<"function">(call);
    std::string_view name = is<"attribute">(fn) ? src.text(field<"attribute">(fn)) : src.text(fn);
    if ((is<"identifier">(fn) && name == "tuple") ||
        (is<"attribute">(fn) &&
         (name == "split" || name == "chunk" || name == "unbind" || name == "tensor_split")))
      return Shape::Tuple;
    TSNode args = field<"arguments">(call);
    if (ts_node_is_null(args)) return Shape::Single;
    const unsigned rparen = ts_node_end_byte(args) - 1;
    for (const facts::SiteFact& site : s_.inv.program.sites) {
      if (site.file != file || site.rparen != rparen) continue;
      auto f = s_.inv.program.functions.find(site.calleeUsr);
      if (f == s_.inv.program.functions.end()) continue;
      const PySource* callee = s_.sources.get(f->second.file);
      TSNode def = callee ? callee->defAt(f->second.line) : TSNode{};
      if (!ts_node_is_null(def)) return returns(f->second.file, *callee, def, depth + 1);
    }
    return Shape::Single;
  }
};

// Whether `e` can be the operand of `*` as written (`*e`), with no parentheses around it.
bool starOperand(TSNode e) {
  return is<"identifier">(e) || is<"call">(e) || is<"attribute">(e) || is<"subscript">(e) ||
         is<"parenthesized_expression">(e);
}

}  // namespace

std::string inputsProblem(const PySource& src, TSNode def, const std::string& role) {
  std::vector<PyParam> ps = src.params(def);
  if (ps.empty()) return role + " takes no first parameter (ctx)";
  for (size_t k = 1; k < ps.size(); ++k) {
    const PyParam& p = ps[k];
    if (p.kind == PyParam::Kind::VarArgs)
      return role + " takes *" + p.name + ": a new input last would land in it";
    if (p.kind == PyParam::Kind::KeywordOnly || p.kind == PyParam::Kind::VarKeywords)
      return role + " takes " + (p.kind == PyParam::Kind::VarKeywords ? "**" : "") + p.name +
             " by keyword, which apply never passes: a new input after it could not be passed";
    if (p.hasDefault)
      return role + " takes " + p.name + "=" + p.defaultText +
             ": apply may leave it out, so where a new input last lands among apply's arguments "
             "is not known";
  }
  return "";
}

std::string functionProblem(const PySource& src, TSNode forward) {
  TSNode cls = PySource::classOf(forward);
  std::string name(src.text(field<"name">(cls)));
  if (!ts_node_is_null(src.method(cls, "setup_context")))
    return name + " defines setup_context: its forward takes no ctx to keep the group on";
  if (!ts_node_is_null(src.method(cls, "jvp")))
    return name +
           " defines jvp, which takes one tangent per input of forward: it would take one "
           "more";
  if (!ts_node_is_null(src.method(cls, "vjp")))
    return name + " defines vjp (backward's other name), which would return one more gradient";
  return "";
}

std::string moreGradients(PyState& s, const std::string& file, const PySource& src, TSNode backward,
                          size_t inputs, size_t added, std::vector<GradientEdit>* out) {
  const std::string where = "backward (" + file + ":" + std::to_string(ts::lineOf(backward)) + ")";
  std::string nones;
  for (size_t k = 0; k < added; ++k) nones += ", None";
  std::vector<GradientEdit> edits;
  std::string why;
  Shapes shapes(s);
  returnsUnder(field<"body">(backward), [&](TSNode r) {
    if (!why.empty()) return;
    std::vector<TSNode> v = namedChildren(r);
    const std::string line = std::to_string(ts::lineOf(r));
    if (v.empty()) {
      why = where + " returns nothing at line " + line;
      return;
    }
    TSNode e = v[0];
    if (is<"tuple">(e) || is<"expression_list">(e)) {
      if (namedChildren(e).empty()) {  // `()`
        edits.push_back({ts_node_start_byte(e) + 1, nones.substr(2) + ","});
        return;
      }
      Insertion ins = appendArgument(src, e, nones.substr(2));
      edits.push_back({ins.offset, ins.text});
      return;
    }
    // With several inputs torch takes only a tuple (a value that is not one would be the
    // gradient of the first input alone): the value is one, so it is unpacked.
    Shape shape = inputs == 1 ? shapes.of(file, src, backward, e, 0) : Shape::Tuple;
    if (shape == Shape::Mixed) {
      why = where + " returns `" + squeezed(src.text(e)) + "` at line " + line +
            ", a tuple on some paths and one gradient on others: where one more goes is not "
            "known";
      return;
    }
    if (shape == Shape::Single) {
      edits.push_back({ts_node_end_byte(e), nones});
      return;
    }
    bool bare = starOperand(e);
    edits.push_back({ts_node_start_byte(e), bare ? "(*" : "(*("});
    edits.push_back({ts_node_end_byte(e), (bare ? "" : ")") + nones + ")"});
  });
  if (why.empty() && !blockExits(field<"body">(backward)))
    why = where +
          " can end without a return (it gives None there): one more gradient cannot be "
          "added to it";
  if (why.empty() && out) *out = std::move(edits);
  return why;
}

}  // namespace gridlock::rewrite::py
