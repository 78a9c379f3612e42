// One Python file parsed by tree-sitter: the tree, the bytes it points into, and the file's
// syntax errors in the form every parse error takes (`file:line:col: error: ...`). A file
// with an ERROR or MISSING node, or with bytes that are not UTF-8, does not parse.
#pragma once

#include "python/flat_tree.h"

#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::python {

class SyntaxTree {
 public:
  // Parses `source` (kept by the tree). Throws GrammarError (grammar.h). A UTF-8 byte order
  // mark is skipped by tree-sitter's lexer: offsets and columns stay those of the file. A
  // carriage return not followed by a line feed ends a line, as it does for CPython: it is
  // kept as '\n' (the grammar ends lines and comments at '\n' only), so the tree's lines,
  // offsets and columns are the file's.
  static SyntaxTree parse(std::string source);

  TSNode root() const { return ts_tree_root_node(tree_.get()); }
  // The same tree, flat: what the extraction walks (flat_tree.h).
  const FlatTree& flat() const { return *flat_; }
  const std::string& source() const { return source_; }
  std::string_view text(TSNode n) const;
  std::string_view text(Node n) const;

  // The first `max` syntax errors, as `file:line:col: error: ...` (1-based, columns in
  // bytes); empty when the file parses.
  std::vector<std::string> errors(const std::string& file, size_t max = 10) const;

 private:
  struct Deleter {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  std::string source_;
  std::unique_ptr<TSTree, Deleter> tree_;
  std::unique_ptr<FlatTree> flat_;
};

// The offset of the first byte of `text` that is not part of well-formed UTF-8 (overlong
// forms, surrogates and code points above U+10FFFF included), or npos.
size_t firstInvalidUtf8(std::string_view text);

}  // namespace gridlock::python
