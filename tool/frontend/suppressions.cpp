#include "frontend/suppressions.h"

#include "facts/suppression_text.h"
#include "support/nearest.h"
#include "support/strings.h"

#include <algorithm>
#include <cctype>

namespace gridlock::frontend {
namespace {

using Comment = SourceComment;

using support::identChar;

// The comments of a C++ file, stepping over string, character and raw string literals and
// pp-numbers (whose digit separators look like character literals).
std::vector<Comment> comments(std::string_view t) {
  std::vector<Comment> out;
  unsigned line = 1;
  bool codeOnLine = false;
  size_t i = 0, n = t.size();
  auto advance = [&](size_t to) {
    for (; i < to && i < n; ++i)
      if (t[i] == '\n') ++line;
  };
  while (i < n) {
    char c = t[i];
    if (c == '\n') {
      ++line;
      ++i;
      codeOnLine = false;
    } else if (c == '/' && i + 1 < n && (t[i + 1] == '/' || t[i + 1] == '*')) {
      Comment k;
      k.line = line;
      size_t lineStart = i == 0 ? std::string_view::npos : t.rfind('\n', i - 1);
      k.column =
          static_cast<unsigned>(i - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
      k.alone = !codeOnLine;
      size_t start = i;
      if (t[i + 1] == '/') {
        size_t end = i + 2;
        // A backslash before the newline continues a line comment.
        while (end < n && !(t[end] == '\n' && t[end - 1] != '\\')) ++end;
        advance(end);
      } else {
        size_t end = t.find("*/", i + 2);
        advance(end == std::string_view::npos ? n : end + 2);
      }
      k.endLine = line;
      k.text = t.substr(start, i - start);
      // Alone: no code before it on its first line, nor after it on its last.
      size_t eol = t.find('\n', i);
      std::string_view after = t.substr(i, eol == std::string_view::npos ? n - i : eol - i);
      k.alone = k.alone && after.find_first_not_of(" \t\r") == std::string_view::npos;
      out.push_back(k);
      if (k.endLine != k.line) codeOnLine = false;
    } else if (c == '"' || c == '\'') {
      // A raw string: R"delim( ... )delim", after a prefix ending in R (R, u8R, LR, uR, UR).
      size_t p = i;
      while (p > 0 && identChar(t[p - 1])) --p;
      std::string_view prefix = t.substr(p, i - p);
      bool raw = c == '"' && (prefix == "R" || prefix == "u8R" || prefix == "uR" ||
                              prefix == "UR" || prefix == "LR");
      size_t end;
      if (raw) {
        size_t open = t.find('(', i + 1);
        std::string close = ")" + std::string(t.substr(i + 1, open - i - 1)) + "\"";
        end = open == std::string_view::npos ? n : t.find(close, open);
        end = end == std::string_view::npos ? n : end + close.size();
      } else {
        end = i + 1;
        while (end < n && t[end] != c && t[end] != '\n') end += t[end] == '\\' ? 2 : 1;
        end = std::min(n, end + 1);
      }
      advance(end);
      codeOnLine = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      // A pp-number: 1'000, 0x1p-3, 1e+5.
      size_t end = i + 1;
      while (end < n) {
        char d = t[end];
        if ((d == '+' || d == '-') &&
            std::string_view("eEpP").find(t[end - 1]) != std::string_view::npos)
          ++end;
        else if (identChar(d) || d == '.' || (d == '\'' && end + 1 < n && identChar(t[end + 1])))
          ++end;
        else
          break;
      }
      i = end;
      codeOnLine = true;
    } else if (identChar(c)) {
      while (i < n && identChar(t[i])) ++i;
      codeOnLine = true;
    } else {
      if (!std::isspace(static_cast<unsigned char>(c))) codeOnLine = true;
      ++i;
    }
  }
  return out;
}

std::string trimBlanks(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// `tp, ps::get_dp` -> {"tp", "ps::get_dp"}; nothing when it is not such a list.
std::optional<std::vector<std::string>> nameList(std::string_view s) {
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    std::string name = trimBlanks(s.substr(start, comma - start));
    if (name.empty() || !support::identStart(name[0])) return std::nullopt;
    for (char c : name)
      if (!identChar(c) && c != ':') return std::nullopt;
    names.push_back(name);
    if (comma == std::string_view::npos) return names;
    start = comma + 1;
  }
}

// Splits `names: reason` at the first ':' that is not part of '::'; no names when what comes
// before it is not a list of names (a reason that holds a colon).
void splitNames(std::string_view inside, AllowComment& a) {
  for (size_t i = 0; i < inside.size(); ++i) {
    if (inside[i] != ':') continue;
    if (i + 1 < inside.size() && inside[i + 1] == ':') {
      ++i;
      continue;
    }
    if (auto names = nameList(inside.substr(0, i))) {
      a.names = *names;
      a.reason = trimBlanks(inside.substr(i + 1));
      return;
    }
    break;
  }
  a.reason = trimBlanks(inside);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Where a comment's suppression is: `at`, the offset of its form (`allow...`) when the
// comment holds `gridlock:` so spelt; otherwise, when it holds one spelt almost right
// (`GRIDLOCK:`, `gridlock :`, `gridlock: alow(`, `gridlock: Allow(`), the problem to report.
// Neither for a comment that only mentions gridlock.
struct Marker {
  size_t at = std::string_view::npos;
  std::string misspelt;
};

Marker findMarker(std::string_view body) {
  const std::string folded = lower(body);
  for (size_t g = folded.find("gridlock"); g != std::string::npos;
       g = folded.find("gridlock", g + 1)) {
    size_t p = g + 8, colon = body.find_first_not_of(" \t", p);
    bool hasColon = colon != std::string_view::npos && body[colon] == ':';
    size_t word = body.find_first_not_of(" \t", hasColon ? colon + 1 : p);
    if (word == std::string_view::npos) continue;
    size_t end = word;
    while (end < body.size() &&
           (std::isalpha(static_cast<unsigned char>(body[end])) || body[end] == '-'))
      ++end;
    std::string_view w = body.substr(word, end - word);
    bool exact = body.substr(g, 9) == "gridlock:";
    if (exact && w.starts_with("allow")) return {word, ""};
    // Allow-like: "allow" (any case) or one slip from it, before its form's suffix.
    std::string form = lower(w);
    size_t dash = form.find('-');
    std::string base = form.substr(0, dash);
    bool allowLike = !base.empty() && support::editDistance(base, "allow") <= 1;
    bool paren = end < body.size() && body[end] == '(';
    if (!allowLike || !(hasColon || paren)) continue;
    std::string fixed = "allow" + (dash == std::string::npos ? "" : form.substr(dash));
    return {std::string_view::npos, "misspelt suppression '" +
                                        std::string(body.substr(g, end - g)) +
                                        "' allows nothing: write 'gridlock: " + fixed +
                                        "(...)', in lower case with ':' right after gridlock"};
  }
  return {};
}

}  // namespace

FileSuppressions findSuppressions(std::string_view text) { return suppressionsOf(comments(text)); }

FileSuppressions suppressionsOf(const std::vector<SourceComment>& all) {
  FileSuppressions out;
  std::vector<size_t> open;  // allow-begin comments not yet ended, by index in out.allows
  for (const Comment& k : all) {
    std::string_view body = k.text;
    Marker marker = findMarker(body);
    if (!marker.misspelt.empty())
      out.bad.push_back({k.line, k.column, std::string(k.text), marker.misspelt});
    if (marker.at == std::string_view::npos) continue;
    size_t at = marker.at;
    // The comment's own text, without the closing `*/`.
    std::string_view rest = body.substr(at);
    if (body.substr(0, 2) == "/*" && rest.size() >= 2 && rest.substr(rest.size() - 2) == "*/")
      rest.remove_suffix(2);
    size_t formEnd = 5;
    while (formEnd < rest.size() && (identChar(rest[formEnd]) || rest[formEnd] == '-')) ++formEnd;
    std::string form(rest.substr(0, formEnd));
    BadAllow bad{k.line, k.column, std::string(k.text), ""};
    AllowComment a;
    a.line = k.line;
    a.column = k.column;
    a.endLine = k.endLine;
    a.alone = k.alone;
    a.text = std::string(k.text);
    if (form == "allow-end") {
      if (open.empty()) {
        bad.problem = "allow-end without an allow-begin";
        out.bad.push_back(bad);
      } else {
        out.allows[open.back()].blockEnd = k.endLine;
        open.pop_back();
      }
      continue;
    }
    if (form == "allow")
      a.form = AllowComment::Form::Line;
    else if (form == "allow-next-line")
      a.form = AllowComment::Form::NextLine;
    else if (form == "allow-begin")
      a.form = AllowComment::Form::Block;
    else if (form == "allow-file")
      a.form = AllowComment::Form::File;
    else {
      bad.problem = "unknown suppression '" + form +
                    "': write allow, allow-next-line, allow-begin ... allow-end or allow-file";
      out.bad.push_back(bad);
      continue;
    }
    std::string_view args = rest.substr(formEnd);
    size_t close = args.rfind(')');
    if (args.empty() || args[0] != '(' || close == std::string_view::npos) {
      bad.problem = facts::kSuppressionWithoutReason;
      out.bad.push_back(bad);
      continue;
    }
    splitNames(args.substr(1, close - 1), a);
    if (a.reason.empty()) {
      bad.problem = facts::kSuppressionWithoutReason;
      out.bad.push_back(bad);
      continue;
    }
    if (a.form == AllowComment::Form::Block) open.push_back(out.allows.size());
    out.allows.push_back(std::move(a));
  }
  // Unended blocks cover nothing: counting on would hide the rest of the file.
  for (size_t i : open) {
    out.bad.push_back({out.allows[i].line, out.allows[i].column, out.allows[i].text,
                       "allow-begin without an allow-end is ignored"});
    out.allows[i].blockEnd = 0;
  }
  std::erase_if(out.allows, [](const AllowComment& a) {
    return a.form == AllowComment::Form::Block && a.blockEnd == 0;
  });
  std::sort(out.bad.begin(), out.bad.end(),
            [](const BadAllow& x, const BadAllow& y) { return x.line < y.line; });
  return out;
}

bool allowNames(const AllowComment& a, const ReadName& r) {
  if (a.names.empty()) return true;
  // The last component of a C++ (`ns::get_tp`) or Python (`pkg.ps.get_tp`) qualified name.
  size_t cut = r.name.rfind("::") == std::string::npos ? 0 : r.name.rfind("::") + 2;
  if (size_t dot = r.name.rfind('.'); dot != std::string::npos && dot + 1 > cut) cut = dot + 1;
  std::string last = r.name.substr(cut);
  for (const auto& n : a.names)
    if (n == r.group || n == r.name || n == last) return true;
  return false;
}

const AllowComment* coveringAllow(const FileSuppressions& s, unsigned line, unsigned statementLine,
                                  const ReadName& r) {
  using Form = AllowComment::Form;
  // An allow on `l` itself, or one for the line after it that ends just above `l`.
  auto at = [&](unsigned l) -> const AllowComment* {
    for (const auto& a : s.allows)
      if (a.form == Form::Line && a.line <= l && l <= a.endLine && allowNames(a, r)) return &a;
    for (const auto& a : s.allows)
      if (a.endLine + 1 == l && ((a.form == Form::Line && a.alone) || a.form == Form::NextLine) &&
          allowNames(a, r))
        return &a;
    return nullptr;
  };
  if (const AllowComment* a = at(line)) return a;
  if (statementLine < line)
    if (const AllowComment* a = at(statementLine)) return a;
  const AllowComment* block = nullptr;
  for (const auto& a : s.allows)
    if (a.form == Form::Block && a.line <= line && line <= a.blockEnd && allowNames(a, r) &&
        (!block || a.line > block->line))
      block = &a;
  if (block) return block;
  for (const auto& a : s.allows)
    if (a.form == Form::File && allowNames(a, r)) return &a;
  return nullptr;
}

}  // namespace gridlock::frontend
