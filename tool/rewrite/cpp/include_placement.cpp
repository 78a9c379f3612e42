#include "rewrite/cpp/include_placement.h"

#include <cctype>
#include <vector>

namespace gridlock::rewrite::cpp {
namespace {

struct Line {
  size_t begin = 0, next = 0;  // offset of the line, offset after its line break
  std::string text;            // without the line break (and a CR before it)
};

std::vector<Line> linesOf(const std::string& text) {
  std::vector<Line> out;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string::npos ? text.size() : nl;
    std::string line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t next = nl == std::string::npos ? text.size() : nl + 1;
    out.push_back({at, next, line});
    at = next;
  }
  return out;
}

// The name a line includes ("gridlock/x.h" for `#include "gridlock/x.h"`, "<mpi.h>" for an
// angled one, the quotes left out), or "" when it is not an #include.
std::string includedName(const std::string& line) {
  size_t p = line.find_first_not_of(" \t");
  if (p == std::string::npos || line[p] != '#') return "";
  p = line.find_first_not_of(" \t", p + 1);
  if (p == std::string::npos || line.compare(p, 7, "include") != 0) return "";
  p = line.find_first_not_of(" \t", p + 7);
  if (p == std::string::npos) return "";
  char close = line[p] == '"' ? '"' : line[p] == '<' ? '>' : 0;
  if (!close) return "";
  size_t e = line.find(close, p + 1);
  if (e == std::string::npos) return "";
  std::string name = line.substr(p + 1, e - p - 1);
  return close == '>' ? "<" + name + ">" : name;
}

std::string firstDirectory(const std::string& name) {
  size_t slash = name.find('/');
  return name.empty() || name[0] == '<' || slash == std::string::npos ? "" : name.substr(0, slash);
}

}  // namespace

bool includesHeader(const std::string& text, const std::string& header) {
  std::string want = header;
  if (want.size() > 1 && want.front() == '"' && want.back() == '"')
    want = want.substr(1, want.size() - 2);
  for (const auto& l : linesOf(text))
    if (includedName(l.text) == want) return true;
  return false;
}

std::optional<size_t> blockOffset(const std::string& text, const std::string& header) {
  const std::string dir = firstDirectory(header);
  if (dir.empty()) return std::nullopt;
  std::vector<Line> lines = linesOf(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (firstDirectory(includedName(lines[i].text)) != dir) continue;
    // The block: consecutive #include lines around line i.
    size_t lo = i, hi = i;
    while (lo > 0 && !includedName(lines[lo - 1].text).empty()) --lo;
    while (hi + 1 < lines.size() && !includedName(lines[hi + 1].text).empty()) ++hi;
    std::optional<size_t> lastOfDir;
    for (size_t j = lo; j <= hi; ++j) {
      std::string name = includedName(lines[j].text);
      if (firstDirectory(name) != dir) continue;
      if (name > header) return lines[j].begin;
      lastOfDir = j;
    }
    // After the block's last line of that directory (a file without a final newline gets
    // none here: clang-format's insertion handles it).
    const Line& last = lines[*lastOfDir];
    if (last.next == text.size() && (text.empty() || text.back() != '\n')) return std::nullopt;
    return last.next;
  }
  return std::nullopt;
}

bool declaresForward(const std::string& text, const std::string& declaration) {
  size_t space = declaration.find(' '), colon = declaration.rfind(':');
  if (space == std::string::npos) return false;
  std::string want = declaration.substr(0, space) + " " +
                     declaration.substr(colon == std::string::npos ? space + 1 : colon + 1) + ";";
  for (const auto& l : linesOf(text)) {
    size_t p = l.text.find_first_not_of(" \t");
    if (p != std::string::npos && l.text.compare(p, want.size(), want) == 0) return true;
  }
  return false;
}

std::optional<size_t> forwardDeclarationOffset(const std::string& text) {
  std::optional<size_t> after;
  for (const auto& l : linesOf(text)) {
    if (!includedName(l.text).empty()) after = l.next;
    if (!after && l.text.rfind("#pragma once", 0) == 0) after = l.next;
  }
  if (after && *after == text.size() && (text.empty() || text.back() != '\n')) return std::nullopt;
  return after;
}

bool isHeaderFile(const std::string& file) {
  for (const char* ext : {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc"})
    if (file.ends_with(ext)) return true;
  return false;
}

}  // namespace gridlock::rewrite::cpp
