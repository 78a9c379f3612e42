#include "rewrite/fix_annotations.h"

#include <sstream>
#include <stdexcept>
#include <vector>

namespace gridlock::test {
namespace {

// A C++ comment (`// CHECK-FIXES`) or a Python one (`# CHECK-FIXES`).
const std::string kFixes = "// CHECK-FIXES";
const std::string kLeft = "// CHECK-LEFT";
const std::string kPyFixes = "# CHECK-FIXES";
const std::string kPyLeft = "# CHECK-LEFT";
const std::string kInclude = "// CHECK-INCLUDE: ";

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A CHECK-FIXES line: the expected text (the comment's indentation, then what follows
// `CHECK-FIXES: ` or `CHECK-FIXES@-N: `) and N (0 for the plain form).
struct Fix {
  std::string text;
  long up = 0;
  bool deleted = false;  // `CHECK-FIXES-DELETE`: the line goes, nothing takes its place
};

bool fixOf(const std::string& line, Fix& out) {
  size_t at = line.find(kFixes);
  size_t marker = kFixes.size();
  if (at == std::string::npos) {
    at = line.find(kPyFixes);
    marker = kPyFixes.size();
  }
  if (at == std::string::npos || line.find_first_not_of(" \t") != at) return false;
  std::string rest = line.substr(at + marker);
  if (rest == "-DELETE") {
    out = {"", 0, true};
    return true;
  }
  if (rest == ":") {  // `// CHECK-FIXES:` alone: an empty line
    out = {"", 0};
    return true;
  }
  size_t colon = rest.find(": ");
  if (colon == std::string::npos) throw std::runtime_error("CHECK-FIXES without ': ': " + line);
  out.up = 0;
  if (colon > 0) {
    if (rest.rfind("@-", 0) != 0) throw std::runtime_error("CHECK-FIXES: bad form: " + line);
    out.up = std::stol(rest.substr(2, colon - 2));
  }
  out.text = line.substr(0, at) + rest.substr(colon + 2);
  return true;
}

// Adds the CHECK-INCLUDE lines of `input` to `out` (lines), each next to its anchor.
void addIncludes(const std::vector<std::string>& input, std::vector<std::string>& out) {
  for (const auto& line : input) {
    size_t at = line.find(kInclude);
    if (at == std::string::npos) continue;
    std::string spec = line.substr(at + kInclude.size());
    size_t after = spec.find(" AFTER "), before = spec.find(" BEFORE ");
    bool isAfter = after != std::string::npos;
    size_t cut = isAfter ? after : before;
    if (cut == std::string::npos)
      throw std::runtime_error("CHECK-INCLUDE needs AFTER or BEFORE: " + line);
    std::string added = spec.substr(0, cut);
    std::string anchor = spec.substr(cut + (isAfter ? 7 : 8));
    size_t found = out.size();
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i] == anchor) {
        if (found != out.size())
          throw std::runtime_error("CHECK-INCLUDE anchor repeats: " + anchor);
        found = i;
      }
    if (found == out.size()) throw std::runtime_error("CHECK-INCLUDE anchor not found: " + anchor);
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(found + (isAfter ? 1 : 0)), added);
  }
}

}  // namespace

std::string expectedOutput(const std::string& input) {
  std::vector<std::string> lines = linesOf(input);
  // Each block of consecutive CHECK-FIXES lines replaces one line: the one above it, or the
  // one N lines above its first line (`@-N`, for a statement the rewrite reformats, whose
  // comments clang-format would move).
  std::map<size_t, std::vector<std::string>> replaced;
  for (size_t i = 0; i < lines.size();) {
    Fix f;
    if (!fixOf(lines[i], f)) {
      ++i;
      continue;
    }
    long target = static_cast<long>(i) - 1 - (f.up > 0 ? f.up - 1 : 0);
    if (target < 0 || fixOf(lines[static_cast<size_t>(target)], f))
      throw std::runtime_error("CHECK-FIXES on line " + std::to_string(i + 1) +
                               " has no code line to replace");
    if (replaced.count(static_cast<size_t>(target)))
      throw std::runtime_error("two CHECK-FIXES blocks for one line");
    std::vector<std::string>& block = replaced[static_cast<size_t>(target)];
    if (!block.empty()) throw std::runtime_error("two CHECK-FIXES blocks for one line");
    for (; i < lines.size() && fixOf(lines[i], f); ++i)
      if (!f.deleted) block.push_back(f.text);
  }
  std::vector<std::string> result;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto it = replaced.find(i);
    if (it == replaced.end())
      result.push_back(lines[i]);
    else
      result.insert(result.end(), it->second.begin(), it->second.end());
  }
  addIncludes(lines, result);
  std::string out;
  for (const auto& l : result) out += l + "\n";
  if (!input.empty() && input.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

std::map<unsigned, std::multiset<std::string>> expectedLeft(const std::string& text) {
  std::map<unsigned, std::multiset<std::string>> out;
  std::vector<std::string> lines = linesOf(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t at = lines[i].find(kLeft), marker = kLeft.size();
    if (at == std::string::npos) {
      at = lines[i].find(kPyLeft);
      marker = kPyLeft.size();
    }
    // A CHECK-FIXES line spells a CHECK-LEFT of the line it rewrites: that one counts.
    if (at == std::string::npos || lines[i].find(kFixes) != std::string::npos ||
        lines[i].find(kPyFixes) != std::string::npos)
      continue;
    // `CHECK-LEFT:` is this line; `CHECK-LEFT@+N:` / `@-N:` a line the rewrite adds nearby.
    std::string rest = lines[i].substr(at + marker);
    long line = static_cast<long>(i + 1);
    size_t colon = rest.find(':');
    if (colon == std::string::npos) throw std::runtime_error("CHECK-LEFT without ':'");
    if (rest[0] == '@')
      line += std::stol(rest.substr(1, colon - 1));
    else if (colon != 0)
      throw std::runtime_error("CHECK-LEFT: bad form " + rest);
    std::istringstream words(rest.substr(colon + 1));
    for (std::string w; words >> w;) out[static_cast<unsigned>(line)].insert(w);
  }
  return out;
}

}  // namespace gridlock::test
