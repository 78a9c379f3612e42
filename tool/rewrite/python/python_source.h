// One Python file as the rewriter reads it: its bytes parsed by tree-sitter, and the questions
// a plan asks about a place in it (the statement, function and class around it, the names
// bound before it, its line's indentation).
#pragma once

#include "python/syntax_tree.h"

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::rewrite::py {

// A parameter as a def writes it.
struct PyParam {
  std::string name;  // `*args` and `**kwargs` without their stars
  enum class Kind { Positional, KeywordOnly, VarArgs, VarKeywords, Self } kind = Kind::Positional;
  bool hasDefault = false;
  std::string defaultText;
  bool annotated = false;
  TSNode node{};
};

class PySource {
 public:
  explicit PySource(std::string text);

  const std::string& text() const { return tree_.source(); }
  std::string_view text(TSNode n) const { return tree_.text(n); }
  TSNode root() const { return tree_.root(); }
  bool parses() const;

  // The smallest named node spanning [offset, offset + length).
  TSNode covering(unsigned offset, unsigned length) const;
  // The statement holding `n` whose parent is a block or the module (n itself when it is one).
  static TSNode statementOf(TSNode n);
  // The innermost def around `n` (a null node at module level); a lambda in between gives null
  // too when `throughLambda` is false.
  static TSNode enclosingDef(TSNode n);
  // The class a def is a method of (a null node when it is not one, directly).
  static TSNode classOf(TSNode def);
  // Whether a def is a module's own (decorated or not), not a method nor a nested def.
  static bool atModuleLevel(TSNode def);
  static bool insideLambda(TSNode n, TSNode def);
  // A def's decorators' names as written (`staticmethod`, `torch.no_grad`).
  std::vector<std::string> decorators(TSNode def) const;
  std::vector<PyParam> params(TSNode def) const;
  // The statements of a def's body (its block's children).
  static std::vector<TSNode> body(TSNode def);
  // The def that starts on a 1-based line (its `def` keyword's line), or a null node.
  TSNode defAt(unsigned line) const;
  // The class that starts on a 1-based line, or a null node.
  TSNode classAt(unsigned line) const;
  // A class's methods by name (direct defs of its body, decorated ones included).
  TSNode method(TSNode cls, const std::string& name) const;
  // The bases a class names, in order (keyword arguments such as `metaclass=` left out).
  static std::vector<TSNode> superclasses(TSNode cls);

  unsigned lineStart(unsigned offset) const;
  unsigned lineEnd(unsigned offset) const;      // the offset of its '\n' (or the end)
  std::string indentAt(unsigned offset) const;  // the blanks starting offset's line
  // The file's indentation unit: a tab when more lines are indented with tabs than with
  // spaces, else the smallest indentation a line has (4 spaces when none).
  std::string indentUnit() const;

 private:
  python::SyntaxTree tree_;
};

// `text` with each run of blanks, line breaks and continuations as one space, none at the end:
// a condition compared as written (`x is None`).
std::string squeezed(std::string_view text);

// `n` and its ancestors: whether some block holding `statement` directly is an ancestor of
// `at` (the statement runs before anything after it in that block).
bool dominates(TSNode statement, TSNode at);

}  // namespace gridlock::rewrite::py
