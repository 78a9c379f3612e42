#include "apply/unified_diff.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace gridlock::apply {
namespace {

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(s.substr(start));
      break;
    }
    lines.push_back(s.substr(start, nl - start + 1));
    start = nl + 1;
  }
  return lines;
}

// A header name as git writes it: C-quoted ("a/we\"ird.cpp") when it holds a quote, a
// backslash, a control or a non-ASCII byte; followed by a tab when it holds a space, so that
// patch and git apply know where the name ends.
std::string headerName(const std::string& prefix, const std::string& file) {
  std::string name = prefix + file;
  bool quote = false;
  for (unsigned char ch : name) quote = quote || ch == '"' || ch == '\\' || ch < 0x20 || ch >= 0x7f;
  std::string out;
  if (quote) {
    out = "\"";
    for (unsigned char ch : name) {
      switch (ch) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\a':
          out += "\\a";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\v':
          out += "\\v";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\r':
          out += "\\r";
          break;
        default:
          if (ch < 0x20 || ch >= 0x7f) {
            char octal[5];
            std::snprintf(octal, sizeof octal, "\\%03o", ch);
            out += octal;
          } else {
            out += static_cast<char>(ch);
          }
      }
    }
    out += "\"";
  } else {
    out = name;
  }
  if (name.find(' ') != std::string::npos) out += "\t";
  return out;
}

}  // namespace

std::string fileDiff(const std::string& file, const std::string& a, const std::string& b) {
  std::vector<std::string> x = splitLines(a), y = splitLines(b);
  // Operations: ' ' keep, '-' delete, '+' insert, with line indices.
  struct Op {
    char kind;
    size_t ai, bi;
  };
  std::vector<Op> ops;
  size_t pre = 0;
  while (pre < x.size() && pre < y.size() && x[pre] == y[pre]) ++pre;
  size_t suf = 0;
  while (suf < x.size() - pre && suf < y.size() - pre &&
         x[x.size() - 1 - suf] == y[y.size() - 1 - suf])
    ++suf;
  for (size_t i = 0; i < pre; ++i) ops.push_back({' ', i, i});
  size_t n = x.size() - pre - suf, m = y.size() - pre - suf;
  if (n * m <= 4'000'000) {
    std::vector<std::vector<unsigned>> lcs(n + 1, std::vector<unsigned>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] = x[pre + i] == y[pre + j] ? lcs[i + 1][j + 1] + 1
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x[pre + i] == y[pre + j]) {
        ops.push_back({' ', pre + i, pre + j});
        ++i, ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.push_back({'-', pre + i, pre + j});
        ++i;
      } else {
        ops.push_back({'+', pre + i, pre + j});
        ++j;
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) ops.push_back({'-', pre + i, pre});
    for (size_t j = 0; j < m; ++j) ops.push_back({'+', pre + n, pre + j});
  }
  for (size_t i = 0; i < suf; ++i) ops.push_back({' ', pre + n + i, pre + m + i});

  std::ostringstream out;
  out << "--- " << headerName("a/", file) << "\n+++ " << headerName("b/", file) << "\n";
  const size_t context = 3;
  size_t k = 0;
  while (k < ops.size()) {
    while (k < ops.size() && ops[k].kind == ' ') ++k;
    if (k == ops.size()) break;
    size_t start = k >= context ? k - context : 0;
    size_t end = k;
    // Extend while changes are no more than 2*context lines apart.
    while (end < ops.size()) {
      if (ops[end].kind != ' ') {
        ++end;
        continue;
      }
      size_t run = end;
      while (run < ops.size() && ops[run].kind == ' ') ++run;
      if (run == ops.size() || run - end > 2 * context) {
        end = std::min(ops.size(), end + context);
        break;
      }
      end = run;
    }
    size_t aStart = ops[start].ai, bStart = ops[start].bi, aLen = 0, bLen = 0;
    std::ostringstream body;
    for (size_t i = start; i < end; ++i) {
      const Op& o = ops[i];
      const std::string& line = o.kind == '+' ? y[o.bi] : x[o.ai];
      if (o.kind != '+') ++aLen;
      if (o.kind != '-') ++bLen;
      body << o.kind << line;
      if (line.empty() || line.back() != '\n') body << "\n\\ No newline at end of file\n";
    }
    out << "@@ -" << (aLen ? aStart + 1 : aStart) << "," << aLen << " +"
        << (bLen ? bStart + 1 : bStart) << "," << bLen << " @@\n"
        << body.str();
    k = end;
  }
  return out.str();
}

std::string unifiedDiff(const Prepared& p) {
  std::string out;
  for (const auto& c : p.changes) out += fileDiff(c.file, c.before, c.after);
  return out;
}

}  // namespace gridlock::apply
