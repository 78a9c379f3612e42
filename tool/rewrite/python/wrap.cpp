#include "rewrite/python/wrap.h"

#include "rewrite/python/python_source.h"
#include "rewrite/python/ts_node.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace gridlock::rewrite::py {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

// The bytes of a statement's logical line: a def's header through its `:`, else the statement.
// The header ends at the colon, not at the body, so that a bracket closing on the header's
// last line is seen as closing there.
std::pair<unsigned, unsigned> logicalLine(TSNode s) {
  if (is<"decorated_definition">(s)) s = field<"definition">(s);
  if (!is<"function_definition">(s)) return {ts_node_start_byte(s), ts_node_end_byte(s)};
  unsigned body = ts_node_start_byte(field<"body">(s)), end = body;
  for (uint32_t i = 0, n = ts_node_child_count(s); i < n; ++i) {
    TSNode c = ts_node_child(s, i);
    if (ts_node_start_byte(c) < body && std::string_view(ts_node_type(c)) == ":")
      end = ts_node_end_byte(c);
  }
  return {ts_node_start_byte(s), end};
}

void commentsUnder(TSNode n, std::vector<TSNode>& out) {
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (is<"comment">(c))
      out.push_back(c);
    else if (ts_node_is_named(c))
      commentsUnder(c, out);
  }
}

// Whether a line of [start, end) is longer than `limit` before its comment.
bool tooLong(const PySource& src, unsigned start, unsigned end, const std::vector<TSNode>& comments,
             unsigned limit) {
  const std::string& t = src.text();
  for (unsigned at = src.lineStart(start); at < end;) {
    unsigned eol = src.lineEnd(at), code = eol;
    for (TSNode c : comments)
      if (ts_node_start_byte(c) >= at && ts_node_start_byte(c) < eol) code = ts_node_start_byte(c);
    while (code > at && (t[code - 1] == ' ' || t[code - 1] == '\t')) --code;
    if (code - at > limit) return true;
    at = eol + 1;
  }
  return false;
}

// The last bracket with contents in [start, end): a call's arguments or a def's parameters.
TSNode lastBracket(TSNode n, unsigned start, unsigned end) {
  TSNode best{};
  std::vector<TSNode> todo{n};
  while (!todo.empty()) {
    TSNode c = todo.back();
    todo.pop_back();
    if (ts_node_start_byte(c) >= end || ts_node_end_byte(c) <= start) continue;
    if ((is<"argument_list">(c) || is<"parameters">(c)) && ts_node_end_byte(c) <= end &&
        !namedChildren(c).empty() &&
        (ts_node_is_null(best) || ts_node_end_byte(c) > ts_node_end_byte(best)))
      best = c;
    for (TSNode k : namedChildren(c)) todo.push_back(k);
  }
  return best;
}

// A bracket's contents split by black: on one line indented a level when they fit, else one
// element per line, each with a comma.
std::string body(const std::vector<std::string>& elements, const std::string& indent,
                 const std::string& unit, unsigned limit) {
  std::string joined;
  for (const auto& e : elements) joined += (joined.empty() ? "" : ", ") + e;
  if (indent.size() + unit.size() + joined.size() <= limit) return indent + unit + joined + "\n";
  std::string out;
  for (const auto& e : elements) out += indent + unit + e + ",\n";
  return out;
}

// The statement's new text from its first line's start to its bracket's line end, or "".
std::string splitFirstLine(const PySource& src, TSNode statement, unsigned limit,
                           const std::string& unit, const std::vector<TSNode>& comments,
                           unsigned* from, unsigned* to) {
  auto [start, end] = logicalLine(statement);
  TSNode bracket = lastBracket(statement, start, end);
  if (ts_node_is_null(bracket)) return "";
  const std::string& t = src.text();
  unsigned open = ts_node_start_byte(bracket), close = ts_node_end_byte(bracket) - 1;
  unsigned lineStart = src.lineStart(start);
  if (src.lineStart(open) != lineStart || src.lineEnd(close) + 1 < end) return "";
  std::string openComment;
  for (TSNode c : comments) {
    unsigned cs = ts_node_start_byte(c);
    if (cs < open || cs > close || src.lineStart(cs) < lineStart) continue;
    if (src.lineStart(cs) != lineStart) return "";  // a comment among the elements
    openComment = "  " + std::string(src.text(c));
  }
  std::vector<std::string> elements;
  for (TSNode e : namedChildren(bracket)) {
    std::string text(src.text(e));
    if (text.find('\n') != std::string::npos) return "";
    elements.push_back(text);
  }
  std::string indent = src.indentAt(start);
  std::string head = t.substr(lineStart, open + 1 - lineStart);
  std::string tail = t.substr(close, src.lineEnd(close) - close);
  *from = lineStart;
  *to = src.lineEnd(close);
  return head + openComment + "\n" + body(elements, indent, unit, limit) + indent + tail;
}

// The smallest call's arguments or def's parameters around [from, to), or a null node.
TSNode bracketAround(TSNode statement, unsigned from, unsigned to) {
  TSNode n = ts_node_named_descendant_for_byte_range(statement, from, to);
  for (; !ts_node_is_null(n); n = ts_node_parent(n))
    if ((is<"argument_list">(n) || is<"parameters">(n)) && ts_node_start_byte(n) < from &&
        ts_node_end_byte(n) > to)
      return n;
  return TSNode{};
}

// `node` (one line of text) on a line of its own after `lead`, followed by `trail`; when that
// is longer than `limit`, split at the call's arguments it ends with, black's right-hand split.
// Nothing when it cannot be split.
std::optional<std::string> rightHandSplit(const PySource& src, TSNode node, const std::string& lead,
                                          const std::string& trail, const std::string& indent,
                                          const std::string& unit, unsigned limit) {
  std::string text(src.text(node));
  if (indent.size() + lead.size() + text.size() + trail.size() <= limit)
    return indent + lead + text + trail + "\n";
  TSNode args = is<"call">(node) ? field<"arguments">(node) : TSNode{};
  if (!is<"argument_list">(args) || ts_node_end_byte(args) != ts_node_end_byte(node))
    return std::nullopt;
  std::vector<std::string> elements;
  for (TSNode e : namedChildren(args)) elements.emplace_back(src.text(e));
  if (elements.empty()) return std::nullopt;
  unsigned open = ts_node_start_byte(args) + 1 - ts_node_start_byte(node);
  return indent + lead + text.substr(0, open) + "\n" + body(elements, indent, unit, limit) +
         indent + ")" + trail + "\n";
}

// A line after the statement's first that is too long: the elements of a bracket whose
// contents are all on it go one per line, each with a comma (black splits at the commas); a
// line holding one element of a bracket is split at the element's operators (black's
// delimiter split: `// tp_size` on a line of its own), and a piece still too long at the call
// it ends with. The new text of the line, or "".
std::string splitInner(const PySource& src, TSNode statement, unsigned line, unsigned limit,
                       const std::string& unit, unsigned* from, unsigned* to) {
  const std::string& t = src.text();
  std::string indent = src.indentAt(line);
  unsigned first = line + static_cast<unsigned>(indent.size()), eol = src.lineEnd(line);
  unsigned last = eol;
  while (last > first && (t[last - 1] == ' ' || t[last - 1] == '\t')) --last;
  bool comma = last > first && t[last - 1] == ',';
  TSNode bracket = bracketAround(statement, first, last);
  if (ts_node_is_null(bracket)) return "";
  std::vector<TSNode> on;
  for (TSNode e : namedChildren(bracket)) {
    if (ts_node_end_byte(e) <= first || ts_node_start_byte(e) >= last) continue;
    if (ts_node_start_byte(e) < first || ts_node_end_byte(e) > last || is<"comment">(e)) return "";
    on.push_back(e);
  }
  if (on.empty() || ts_node_start_byte(on.front()) != first ||
      ts_node_end_byte(on.back()) != last - (comma ? 1 : 0))
    return "";
  std::string out;
  if (on.size() > 1) {
    for (TSNode e : on) out += indent + std::string(src.text(e)) + ",\n";
  } else {
    TSNode value = is<"keyword_argument">(on[0]) ? field<"value">(on[0]) : on[0];
    std::string lead = t.substr(first, ts_node_start_byte(value) - first);
    // The operands of a chain of one operator (`a // b // c`), each after its operator.
    std::vector<std::pair<std::string, TSNode>> pieces;
    std::string op =
        is<"binary_operator">(value) ? std::string(src.text(field<"operator">(value))) : "";
    TSNode n = value;
    for (; !op.empty() && is<"binary_operator">(n) && src.text(field<"operator">(n)) == op;
         n = field<"left">(n))
      pieces.insert(pieces.begin(), {op + " ", field<"right">(n)});
    pieces.insert(pieces.begin(), {lead, n});
    for (size_t k = 0; k < pieces.size(); ++k) {
      std::string trail = k + 1 == pieces.size() && comma ? "," : "";
      auto text =
          rightHandSplit(src, pieces[k].second, pieces[k].first, trail, indent, unit, limit);
      if (!text) return "";
      out += *text;
    }
  }
  *from = line;
  *to = eol + (eol < t.size() ? 1 : 0);
  return out;
}

// The bytes of a statement's logical line as black sees it: a compound statement's header
// through its `:` (a def's, an `if`'s, a `with`'s), else the whole statement.
std::pair<unsigned, unsigned> headerLine(TSNode s) {
  if (is<"decorated_definition">(s)) s = field<"definition">(s);
  unsigned end = ts_node_end_byte(s), colon = 0;
  for (uint32_t i = 0, n = ts_node_child_count(s); i < n; ++i) {
    TSNode c = ts_node_child(s, i);
    if (is<"block">(c)) {
      end = colon;
      break;
    }
    if (std::string_view(ts_node_type(c)) == ":") colon = ts_node_end_byte(c);
  }
  return {ts_node_start_byte(s), end};
}

// Whether a node in [start, end) stops a join: a string spanning lines (its line break is
// text), or parentheses black would drop once the line fits (a right-hand side, a returned
// value, a condition written `(...)`: black's invisible parentheses make `x = a + b`).
bool unjoinable(const PySource& src, TSNode n, unsigned start, unsigned end) {
  if (ts_node_end_byte(n) <= start || ts_node_start_byte(n) >= end) return false;
  if (is<"string">(n) && src.text(n).find('\n') != std::string_view::npos) return true;
  if (is<"parenthesized_expression">(n)) {
    TSNode p = ts_node_parent(n);
    if (is<"return_statement">(p) || is<"expression_statement">(p) || is<"delete_statement">(p) ||
        is<"assert_statement">(p) ||
        ((is<"assignment">(p) || is<"augmented_assignment">(p) || is<"for_statement">(p)) &&
         ts::same(field<"right">(p), n)) ||
        ((is<"if_statement">(p) || is<"elif_clause">(p) || is<"while_statement">(p)) &&
         ts::same(field<"condition">(p), n)))
      return true;
  }
  for (uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i)
    if (unjoinable(src, ts_node_named_child(n, i), start, end)) return true;
  return false;
}

// Columns of a line as black 23 counts them (len() of the text: code points, not bytes).
unsigned columns(const std::string& line) {
  unsigned n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

// [start, end) of a statement on one line, as black writes a line that fits: each line break
// with the indentation after it becomes nothing after an opening bracket, before a closing
// bracket or a `.`, else one space. Nothing when black would keep it split there: a magic
// trailing comma (`magicComma`: a comma before a closing bracket, other than a one-element
// tuple's; without magic ones, the comma is dropped, but not a subscript's), a backslash, or a
// blank line.
std::optional<std::string> oneLine(const PySource& src, unsigned start, unsigned end,
                                   bool magicComma) {
  const std::string& t = src.text();
  std::string line;
  for (unsigned at = start; at < end; ++at) {
    char c = t[at];
    TSNode token = ts_node_descendant_for_byte_range(src.root(), at, at + 1);
    if (c == ',' && std::string_view(ts_node_type(token)) == ",") {
      // The bracket it comes before may be past `end` (a right-hand split's contents).
      unsigned next = at + 1;
      while (next < t.size() && (t[next] == ' ' || t[next] == '\t' || t[next] == '\n')) ++next;
      if (next < t.size() && (t[next] == ')' || t[next] == ']' || t[next] == '}')) {
        TSNode bracket = src.covering(next, 1);
        bool oneTuple = is<"tuple">(bracket) && namedChildren(bracket).size() == 1;
        // A subscript's (`x[a,]` indexes with a tuple) is left to black.
        if (!oneTuple && (magicComma || is<"subscript">(bracket))) return std::nullopt;
        if (!oneTuple) continue;  // black drops it as it joins the line
      }
    }
    if (c != '\n') {
      line += c;
      continue;
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (!line.empty() && line.back() == '\\') return std::nullopt;
    unsigned next = at + 1;
    while (next < end && (t[next] == ' ' || t[next] == '\t')) ++next;
    if (next < end && t[next] == '\n') return std::nullopt;
    char before = line.empty() ? '(' : line.back(), after = next < end ? t[next] : ')';
    bool tight = before == '(' || before == '[' || before == '{' || after == ')' || after == ']' ||
                 after == '}' || after == '.';
    if (!tight) line += ' ';
    at = next - 1;
  }
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
  return line;
}

// The statement as black writes it once the edits changed a line of it, when that differs
// from the split it has: on one line when that fits in `limit`, its trailing comment counted as
// black counts it; else, when its first line ends with the bracket that its last line closes
// (black's right-hand split) and the bracket's contents, now over several lines, fit on one
// line indented a level, with them there. Its new text (from, to), or "" when black would
// keep it as it is, or the wrapper cannot tell: a comment inside, a string spanning lines, a
// node `unjoinable` names, or what `oneLine` refuses.
std::string join(const PySource& src, TSNode statement, const std::vector<TSNode>& comments,
                 unsigned limit, const std::string& unit, bool magicComma, unsigned* from,
                 unsigned* to) {
  auto [start, end] = headerLine(statement);
  const std::string& t = src.text();
  if (end <= start || t.find('\n', start) >= end) return "";
  if (unjoinable(src, statement, start, end)) return "";
  std::string trailing;
  for (TSNode c : comments) {
    unsigned cs = ts_node_start_byte(c);
    if (cs >= start && cs < end) return "";
    if (cs >= end && src.lineStart(cs) == src.lineStart(end - 1))
      trailing = "  " + std::string(src.text(c));
  }
  const std::string indent = src.indentAt(start);
  *from = src.lineStart(start);
  *to = end;
  auto whole = oneLine(src, start, end, magicComma);
  if (!whole) return "";
  if (is<"import_from_statement">(statement)) {
    // black writes the names of an import that fits without their parentheses, and one that
    // does not one per line, each with a comma, as it was split.
    size_t paren = whole->find("import (");
    if (paren == std::string::npos || whole->back() != ')') return "";
    std::string bare =
        whole->substr(0, paren) + "import " + whole->substr(paren + 8, whole->size() - paren - 9);
    return columns(indent + bare + trailing) <= limit ? indent + bare : "";
  }
  if (columns(indent + *whole + trailing) <= limit) return indent + *whole;
  // The right-hand split's contents.
  unsigned eol = src.lineEnd(start), open = eol;
  while (open > start && (t[open - 1] == ' ' || t[open - 1] == '\t')) --open;
  if (open == start || std::string_view("([{").find(t[open - 1]) == std::string_view::npos)
    return "";
  TSNode bracket = ts_node_parent(ts_node_descendant_for_byte_range(src.root(), open - 1, open));
  unsigned close = ts_node_end_byte(bracket) - 1;
  if (ts_node_is_null(bracket) || ts_node_start_byte(bracket) != open - 1 || close >= end ||
      src.lineStart(close) != src.lineStart(end - 1) ||
      src.lineStart(close) + src.indentAt(close).size() != close ||
      t.find('\n', eol + 1) >= src.lineStart(close) - 1 ||
      columns(t.substr(*from, open - *from)) > limit)  // a first line too long: split() decides
    return "";
  auto contents = oneLine(src, eol + 1, src.lineStart(close), magicComma);
  if (!contents) return "";
  std::string body = *contents;
  size_t lead = body.find_first_not_of(" \t");
  body = lead == std::string::npos ? "" : body.substr(lead);
  if (body.empty() || columns(indent + unit + body) > limit) return "";
  return t.substr(*from, open - *from) + "\n" + indent + unit + body + "\n" +
         t.substr(src.lineStart(close), end - src.lineStart(close));
}

// The statement joined when black would join it, else its first line too long, else another:
// its new text (from, to), or "".
std::string split(const PySource& src, TSNode statement, unsigned limit, const std::string& unit,
                  bool magicComma, unsigned* from, unsigned* to) {
  auto [start, end] = logicalLine(statement);
  // A trailing comment is the block's child, beside the statement.
  std::vector<TSNode> comments;
  commentsUnder(ts_node_parent(statement), comments);
  if (std::string joined = join(src, statement, comments, limit, unit, magicComma, from, to);
      !joined.empty())
    return joined;
  for (unsigned at = src.lineStart(start); at < end; at = src.lineEnd(at) + 1) {
    if (!tooLong(src, at, std::min(src.lineEnd(at), end), comments, limit)) continue;
    if (at == src.lineStart(start))
      return splitFirstLine(src, statement, limit, unit, comments, from, to);
    for (TSNode c : comments)
      if (ts_node_start_byte(c) >= at && ts_node_start_byte(c) < src.lineEnd(at)) return "";
    return splitInner(src, statement, at, limit, unit, from, to);
  }
  return "";
}

}  // namespace

std::string wrapLongStatements(const std::string& text,
                               const std::vector<std::pair<unsigned, unsigned>>& touched,
                               unsigned limit, const std::string& unit, bool magicTrailingComma) {
  PySource src(text);
  std::set<unsigned> seen;
  std::vector<TSNode> statements;
  for (auto [a, b] : touched) {
    // An inserted line (Collapse's lookup) without the blanks and line break around it: the
    // range then covers its statement, not the block it went into.
    auto blank = [&](unsigned at) {
      return std::string_view(" \t\r\n").find(text[at]) != std::string_view::npos;
    };
    unsigned from = a, to = b;
    while (from < to && blank(from)) ++from;
    while (to > from && blank(to - 1)) --to;
    if (from < to) a = from, b = to;
    TSNode s = PySource::statementOf(src.covering(a, b > a ? b - a : 0));
    if (ts_node_is_null(s) || is<"module">(s)) continue;
    if (seen.insert(ts_node_start_byte(s)).second) statements.push_back(s);
  }
  std::sort(statements.begin(), statements.end(),
            [](TSNode x, TSNode y) { return ts_node_start_byte(x) > ts_node_start_byte(y); });
  std::string out = text;
  for (TSNode s : statements) {
    unsigned from = 0, to = 0;
    std::string replaced = split(src, s, limit, unit, magicTrailingComma, &from, &to);
    if (!replaced.empty()) out.replace(from, to - from, replaced);
  }
  return out;
}

}  // namespace gridlock::rewrite::py
