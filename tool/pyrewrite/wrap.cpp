#include "pyrewrite/wrap.h"

#include "pyrewrite/python_source.h"
#include "pyrewrite/ts_node.h"

#include <algorithm>
#include <set>

namespace gridlock::pyrewrite {
namespace {

using ts::field;
using ts::is;
using ts::namedChildren;

// The bytes of a statement's logical line: a def's header, else the statement.
std::pair<unsigned, unsigned> logicalLine(TSNode s) {
  if (is<"decorated_definition">(s)) s = field<"definition">(s);
  if (is<"function_definition">(s))
    return {ts_node_start_byte(s), ts_node_start_byte(field<"body">(s))};
  return {ts_node_start_byte(s), ts_node_end_byte(s)};
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

// The statement's new text from its first line's start to its bracket's line end, or "".
std::string split(const PySource& src, TSNode statement, unsigned limit, const std::string& unit,
                  unsigned* from, unsigned* to) {
  auto [start, end] = logicalLine(statement);
  // A trailing comment is the block's child, beside the statement.
  std::vector<TSNode> comments;
  commentsUnder(ts_node_parent(statement), comments);
  if (!tooLong(src, start, end, comments, limit)) return "";
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
  std::string joined;
  for (const auto& e : elements) joined += (joined.empty() ? "" : ", ") + e;
  std::string out = head + openComment + "\n";
  if (indent.size() + unit.size() + joined.size() <= limit) {
    out += indent + unit + joined + "\n";
  } else {
    for (const auto& e : elements) out += indent + unit + e + ",\n";
  }
  *from = lineStart;
  *to = src.lineEnd(close);
  return out + indent + tail;
}

}  // namespace

std::string wrapLongStatements(const std::string& text,
                               const std::vector<std::pair<unsigned, unsigned>>& touched,
                               unsigned limit, const std::string& unit) {
  PySource src(text);
  std::set<unsigned> seen;
  std::vector<TSNode> statements;
  for (const auto& [a, b] : touched) {
    TSNode s = PySource::statementOf(src.covering(a, b > a ? b - a : 0));
    if (ts_node_is_null(s) || is<"module">(s)) continue;
    if (seen.insert(ts_node_start_byte(s)).second) statements.push_back(s);
  }
  std::sort(statements.begin(), statements.end(),
            [](TSNode x, TSNode y) { return ts_node_start_byte(x) > ts_node_start_byte(y); });
  std::string out = text;
  for (TSNode s : statements) {
    unsigned from = 0, to = 0;
    std::string replaced = split(src, s, limit, unit, &from, &to);
    if (!replaced.empty()) out.replace(from, to - from, replaced);
  }
  return out;
}

}  // namespace gridlock::pyrewrite
