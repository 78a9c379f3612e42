#include "rewrite/cpp/argument_style.h"

#include "support/strings.h"

namespace gridlock::rewrite::cpp {
namespace {

using support::identChar;
using support::identStart;

// `/*name=*/` (spaces allowed around the name and `=`) at `at`.
bool argumentCommentAt(const std::string& s, size_t at) {
  if (s.compare(at, 2, "/*") != 0) return false;
  size_t i = at + 2;
  while (i < s.size() && s[i] == ' ') ++i;
  if (i >= s.size() || !identStart(s[i])) return false;
  while (i < s.size() && identChar(s[i])) ++i;
  while (i < s.size() && s[i] == ' ') ++i;
  if (i >= s.size() || s[i] != '=') return false;
  ++i;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.compare(i, 2, "*/") == 0;
}

}  // namespace

std::string styledArgument(const std::string& source, const Edit& e) {
  const std::string sep = ", ";
  if (e.argument.empty() || e.length != 0 || e.offset >= source.size() ||
      e.text.size() <= sep.size() || e.text.compare(e.text.size() - sep.size(), sep.size(), sep))
    return e.text;
  std::string value = e.text.substr(0, e.text.size() - sep.size());
  if (argumentCommentAt(source, e.offset)) value = "/*" + e.argument + "=*/" + value;
  // The whitespace from the start of the line to the argument: all of it, or it shares a line.
  size_t lineStart = source.rfind('\n', e.offset == 0 ? 0 : e.offset - 1);
  lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
  std::string indent = source.substr(lineStart, e.offset - lineStart);
  const bool ownLine =
      lineStart > 0 && !indent.empty() && indent.find_first_not_of(" \t") == std::string::npos;
  // A CRLF file gets its \r back when the replacements are written (edits.cpp).
  return value + (ownLine ? ",\n" + indent : sep);
}

}  // namespace gridlock::rewrite::cpp
