#include "rewrite/python/prepare.h"

#include "rewrite/python/imports.h"
#include "rewrite/python/line_length.h"
#include "rewrite/python/python_source.h"
#include "rewrite/python/wrap.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gridlock::rewrite::py {
namespace {

// The edits once each, sorted; false (with the conflict in `out`) when two overlap.
bool sortedEdits(const std::string& file, std::vector<apply::Edit>& edits, apply::Prepared& out) {
  std::sort(edits.begin(), edits.end(), [](const apply::Edit& a, const apply::Edit& b) {
    return std::tie(a.offset, a.length, a.text) < std::tie(b.offset, b.length, b.text);
  });
  std::vector<apply::Edit> unique;
  for (const auto& e : edits) {
    if (!unique.empty()) {
      const apply::Edit& last = unique.back();
      if (last.offset == e.offset && last.length == e.length && last.text == e.text) continue;
      if (e.offset < last.offset + last.length || (e.offset == last.offset && e.length == 0)) {
        out.conflicts.push_back(file + ": " + e.why + " (bytes " + std::to_string(e.offset) + "+" +
                                std::to_string(e.length) + ") overlaps " + last.why + " (bytes " +
                                std::to_string(last.offset) + "+" + std::to_string(last.length) +
                                ")");
        return false;
      }
    }
    unique.push_back(e);
  }
  edits = std::move(unique);
  return true;
}

// `before` with the (sorted, disjoint) edits; `touched` gets where each new text lies.
std::string applied(const std::string& before, const std::vector<apply::Edit>& edits,
                    std::vector<std::pair<unsigned, unsigned>>* touched) {
  std::string out;
  size_t at = 0;
  for (const auto& e : edits) {
    out.append(before, at, e.offset - at);
    unsigned start = static_cast<unsigned>(out.size());
    out += e.text;
    if (touched) touched->push_back({start, static_cast<unsigned>(out.size())});
    at = e.offset + e.length;
  }
  out.append(before, at, std::string::npos);
  return out;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  for (size_t at = 0; at < s.size();) {
    size_t end = s.find('\n', at);
    end = end == std::string::npos ? s.size() : end + 1;
    out.push_back(s.substr(at, end - at));
    at = end;
  }
  return out;
}

}  // namespace

std::vector<apply::Replacement> lineReplacements(const std::string& before,
                                                 const std::string& after) {
  std::vector<std::string> a = lines(before), b = lines(after);
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre &&
         a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    ++suf;
  const size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  // Longest common subsequence of the middle lines; a middle too large to align is one run.
  std::vector<std::vector<unsigned>> lcs;
  if (n * m <= 4'000'000) {
    lcs.assign(n + 1, std::vector<unsigned>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  size_t offset = 0;
  for (size_t k = 0; k < pre; ++k) offset += a[k].size();
  std::vector<apply::Replacement> out;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (!lcs.empty() && i < n && j < m && a[pre + i] == b[pre + j]) {
      offset += a[pre + i].size();
      ++i, ++j;
      continue;
    }
    size_t start = offset, length = 0;
    std::string text;
    while ((i < n || j < m) && (lcs.empty() || i >= n || j >= m || a[pre + i] != b[pre + j])) {
      if (j < m && (i >= n || lcs.empty() || lcs[i][j + 1] >= lcs[i + 1][j])) {
        text += b[pre + j++];
      } else {
        length += a[pre + i].size();
        offset += a[pre + i++].size();
      }
    }
    out.push_back({static_cast<unsigned>(start), static_cast<unsigned>(length), text});
  }
  return out;
}

apply::Prepared prepare(const std::vector<apply::Edit>& edits, const index::Inventory& inv,
                        const std::string& root) {
  auto finish = [&](apply::FileChange& c, const std::vector<apply::Edit>& checked,
                    apply::Prepared& out) {
    PySource before(c.before), first(applied(c.before, checked, nullptr));
    std::vector<apply::Edit> all = checked;
    for (auto& e : unusedImports(c.file, before, first)) all.push_back(std::move(e));
    if (!sortedEdits(c.file, all, out)) return false;
    std::vector<std::pair<unsigned, unsigned>> touched;
    std::string after = applied(c.before, all, &touched);
    after = wrapLongStatements(after, touched, lineLength(root, c.file), before.indentUnit(),
                               magicTrailingComma(root, c.file));
    c.replacements = lineReplacements(c.before, after);
    // The file's line endings: every line break the edits, the unused imports' removal and
    // the wrapping write is '\n' (a carriage return alone reads as one: syntax_tree.h).
    if (std::string eol = apply::lineBreakOf(c.before); eol != "\n")
      for (apply::Replacement& r : c.replacements)
        r.text = apply::withLineBreak(r.text, eol, r.offset > 0 ? c.before[r.offset - 1] : '\0');
    return true;
  };
  return apply::prepare(edits, inv.digests, root, finish);
}

}  // namespace gridlock::rewrite::py
