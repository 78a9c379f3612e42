// The flat copy of a syntax tree (python/flat_tree.h) answers as tree-sitter's node API does:
// the same nodes in the same order, types, named-ness, positions, the child of every field,
// and the named children (comments left out, or counted). Each check walks both side by side.
#include "python/flat_tree.h"
#include "python/grammar.h"
#include "python/syntax_tree.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gridlock::python {
namespace {

// Where a node is and what it is, comparable across the two APIs.
struct Seen {
  std::string type;
  uint32_t start, end;
  TSPoint startPoint, endPoint;
  bool operator==(const Seen& o) const {
    return type == o.type && start == o.start && end == o.end &&
           startPoint.row == o.startPoint.row && startPoint.column == o.startPoint.column &&
           endPoint.row == o.endPoint.row && endPoint.column == o.endPoint.column;
  }
};

std::ostream& operator<<(std::ostream& os, const Seen& s) {
  return os << s.type << "@" << s.start << "-" << s.end;
}

Seen seen(TSNode n) {
  if (ts_node_is_null(n)) return {"(null)", 0, 0, {}, {}};
  return {ts_node_type(n), ts_node_start_byte(n), ts_node_end_byte(n), ts_node_start_point(n),
          ts_node_end_point(n)};
}

Seen seen(Node n) {
  if (n.isNull()) return {"(null)", 0, 0, {}, {}};
  return {n.type(), n.startByte(), n.endByte(), n.startPoint(), n.endPoint()};
}

// Compares `flat` with `ts` and everything below them; counts the nodes compared.
void compare(TSNode ts, Node flat, size_t& count) {
  ++count;
  ASSERT_EQ(seen(flat), seen(ts));
  EXPECT_EQ(flat.symbol(), ts_node_symbol(ts)) << seen(ts);
  EXPECT_EQ(flat.isNamed(), ts_node_is_named(ts)) << seen(ts);
  const TSLanguage* language = pythonLanguage();
  for (TSFieldId id = 1; id <= ts_language_field_count(language); ++id)
    EXPECT_EQ(seen(flat.child(id)), seen(ts_node_child_by_field_id(ts, id)))
        << seen(ts) << " field " << ts_language_field_name_for_id(language, id);
  uint32_t named = ts_node_named_child_count(ts);
  ASSERT_EQ(flat.namedChildCount(), named) << seen(ts);
  std::vector<Seen> withoutComments;
  for (uint32_t i = 0; i < named; ++i) {
    TSNode c = ts_node_named_child(ts, i);
    EXPECT_EQ(seen(flat.namedChild(i)), seen(c)) << seen(ts) << " named child " << i;
    if (std::string(ts_node_type(c)) != "comment") withoutComments.push_back(seen(c));
  }
  std::vector<Seen> flatNamed;
  for (Node c : flat.namedChildren()) flatNamed.push_back(seen(c));
  EXPECT_EQ(flatNamed, withoutComments) << seen(ts);
  uint32_t all = ts_node_child_count(ts);
  ASSERT_EQ(flat.children().size(), all) << seen(ts);
  size_t before = count;
  for (uint32_t i = 0; i < all; ++i) {
    EXPECT_EQ(flat.children()[i].parent(), flat) << seen(ts) << " child " << i;
    compare(ts_node_child(ts, i), flat.children()[i], count);
  }
  // Its descendants, in preorder, are the nodes right after it.
  EXPECT_EQ(flat.subtreeEnd(), flat.id() + 1 + (count - before)) << seen(ts);
}

size_t compareAll(const std::string& source) {
  SyntaxTree t = SyntaxTree::parse(source);
  size_t count = 0;
  compare(t.root(), t.flat().root(), count);
  EXPECT_TRUE(t.flat().root().parent().isNull());
  // Every node once, in preorder: the flat array holds what the walk met, nothing else.
  EXPECT_EQ(t.flat().size(), count);
  return count;
}

TEST(PythonFlatTree, AnswersAsTreeSittersNodeApi) {
  size_t n = compareAll(
      "# a comment\n"
      "from ..a.b import (c as d,  # between names\n"
      "    e)\n"
      "import x.y as z, w\n"
      "@decorator(1)\n"
      "class K(Base, metaclass=M):\n"
      "    '''doc'''\n"
      "    def f(self, g: int = None, /, *args, k=1, **kwargs) -> 'T':\n"
      "        if g is not None and k not in (1, 2):\n"
      "            return g or ps.get_x(  # inside the call\n"
      "                a, *b, key=v, **kw)\n"
      "        h = [y async for y in z if y] + {u: v for u, v in w}\n"
      "        lam = lambda q, r=2: q if q else r\n"
      "        global G\n"
      "        G += 1; del h[0]\n"
      "        with open(p) as (a, b): pass\n"
      "        s = f'{g!r:>{k}}' r'raw' b'b'\n"
      "        match s:\n"
      "            case [1, *rest] | {'k': _} as m if (n := 3): pass\n"
      "        return getattr(ps, 'get_y', None)\n");
  EXPECT_GT(n, 300u);  // the source is walked, not an empty tree
}

TEST(PythonFlatTree, AnswersAsTreeSittersNodeApiInAFileThatDoesNotParse) {
  // ERROR and MISSING nodes are nodes like any other: what the tree shows is still read.
  compareAll("x = 1\ndef f(:\n    return (1 +\nclass\n  y = ps.get_x()\n");
}

TEST(PythonFlatTree, AnEmptyFileIsOneModuleNode) {
  SyntaxTree t = SyntaxTree::parse("");
  ASSERT_EQ(t.flat().size(), 1u);
  EXPECT_STREQ(t.flat().root().type(), "module");
  EXPECT_TRUE(t.flat().root().namedChildren().empty());
  EXPECT_TRUE(t.flat().root().child(1).isNull());
}

TEST(PythonFlatTree, ANullNodeHasNothing) {
  Node none;
  EXPECT_TRUE(none.isNull());
  EXPECT_EQ(none.symbol(), 0);
  EXPECT_TRUE(none.children().empty());
  EXPECT_TRUE(none.namedChildren().empty());
  EXPECT_TRUE(none.child(1).isNull());
  EXPECT_TRUE(none.namedChild(0).isNull());
  EXPECT_EQ(none.namedChildCount(), 0u);
}

}  // namespace
}  // namespace gridlock::python
