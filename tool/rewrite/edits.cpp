#include "rewrite/edits.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/ReplacementsYaml.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MD5.h>
#include <llvm/Support/YAMLTraits.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace gridlock::rewrite {
namespace {

std::string joinPath(const std::string& root, const std::string& file) {
  if (!file.empty() && file[0] == '/') return file;
  return root + "/" + file;
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }

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

// One file's diff: common prefix and suffix trimmed, the middle aligned by longest common
// subsequence (or replaced whole when it is too large to align), hunks with 3 lines of
// context.
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
  out << "--- a/" << file << "\n+++ b/" << file << "\n";
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

}  // namespace

std::string md5Hex(const std::string& text) {
  llvm::MD5 md5;
  md5.update(text);
  llvm::MD5::MD5Result result;
  md5.final(result);
  return result.digest().str().str();
}

Prepared prepare(const Plan& plan, const index::Inventory& inv, const std::string& root) {
  Prepared out;
  std::map<std::string, std::vector<Edit>> byFile;
  for (const auto& e : plan.edits) byFile[e.file].push_back(e);
  std::map<std::string, std::set<std::string>> includes;
  for (const auto& i : plan.includes) includes[i.file].insert(i.header);

  for (auto& [file, edits] : byFile) {
    FileChange c;
    c.file = file;
    c.path = joinPath(root, file);
    if (!readFile(c.path, c.before)) {
      out.errors.push_back(file + ": cannot read");
      continue;
    }
    auto digest = inv.digests.find(file);
    if (digest == inv.digests.end()) {
      out.changedFiles.push_back(file + ": the scan recorded no digest for it");
      continue;
    }
    if (digest->second != md5Hex(c.before)) {
      out.changedFiles.push_back(file + ": changed since it was scanned");
      continue;
    }
    // Identical edits (a header seen by several translation units) count once; any other
    // overlap is a conflict.
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
      return std::tie(a.offset, a.length, a.text) < std::tie(b.offset, b.length, b.text);
    });
    std::vector<Edit> unique;
    bool conflict = false;
    for (const auto& e : edits) {
      if (e.offset + e.length > c.before.size()) {
        out.errors.push_back(file + ": edit " + e.why + " lies past the end of the file");
        conflict = true;
        continue;
      }
      if (!unique.empty()) {
        const Edit& last = unique.back();
        if (last.offset == e.offset && last.length == e.length && last.text == e.text) continue;
        bool overlap = e.offset < last.offset + last.length ||
                       (e.offset == last.offset && (e.length == 0 || last.length == 0));
        if (overlap) {
          out.conflicts.push_back(file + ": " + e.why + " (bytes " + std::to_string(e.offset) +
                                  "+" + std::to_string(e.length) + ") overlaps " + last.why +
                                  " (bytes " + std::to_string(last.offset) + "+" +
                                  std::to_string(last.length) + ")");
          conflict = true;
          continue;
        }
      }
      unique.push_back(e);
    }
    if (conflict) continue;
    clang::tooling::Replacements reps;
    for (const auto& e : unique)
      if (auto err = reps.add(clang::tooling::Replacement(c.path, e.offset, e.length, e.text))) {
        out.conflicts.push_back(file + ": " + e.why + ": " + errorText(std::move(err)));
        conflict = true;
      }
    if (conflict) continue;
    for (const auto& h : includes[file]) {
      std::string spelled = h.front() == '<' || h.front() == '"' ? h : "\"" + h + "\"";
      if (auto err = reps.add(clang::tooling::Replacement(c.path, UINT_MAX, 0,
                                                          "#include " + spelled)))
        out.errors.push_back(file + ": #include " + spelled + ": " + errorText(std::move(err)));
    }
    // The project's style when a .clang-format applies, else no formatting at all (includes
    // are still put in their block).
    auto style = clang::format::getStyle("file", c.path, "none", c.before);
    if (!style) {
      out.errors.push_back(file + ": .clang-format: " + errorText(style.takeError()));
      continue;
    }
    auto cleaned = clang::format::cleanupAroundReplacements(c.before, reps, *style);
    if (!cleaned) {
      out.errors.push_back(file + ": " + errorText(cleaned.takeError()));
      continue;
    }
    reps = *cleaned;
    if (!style->DisableFormat) {
      auto formatted = clang::format::formatReplacements(c.before, reps, *style);
      if (!formatted) {
        out.errors.push_back(file + ": formatting: " + errorText(formatted.takeError()));
        continue;
      }
      reps = *formatted;
    }
    auto after = clang::tooling::applyAllReplacements(c.before, reps);
    if (!after) {
      out.errors.push_back(file + ": " + errorText(after.takeError()));
      continue;
    }
    c.after = *after;
    c.replacements = reps;
    if (c.after != c.before) out.changes.push_back(std::move(c));
  }
  return out;
}

std::string exportYaml(const Prepared& p, const std::string& mainSourceFile) {
  clang::tooling::TranslationUnitReplacements tu;
  tu.MainSourceFile = mainSourceFile;
  for (const auto& c : p.changes)
    for (const auto& r : c.replacements) tu.Replacements.push_back(r);
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::yaml::Output yaml(os);
  yaml << tu;
  os.flush();
  return text;
}

std::string unifiedDiff(const Prepared& p) {
  std::string out;
  for (const auto& c : p.changes) out += fileDiff(c.file, c.before, c.after);
  return out;
}

std::map<std::string, std::string> overlayOf(const Prepared& p) {
  std::map<std::string, std::string> out;
  for (const auto& c : p.changes) out[c.path] = c.after;
  return out;
}

void writeAll(const Prepared& p) {
  auto tmpOf = [](const std::string& path) { return path + ".gridlock-tmp"; };
  auto removeTemps = [&] {
    for (const auto& c : p.changes) std::remove(tmpOf(c.path).c_str());
  };
  for (const auto& c : p.changes) {
    std::string tmp = tmpOf(c.path);
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << c.after;
    if (!out.flush()) {
      out.close();
      removeTemps();
      throw std::runtime_error(c.file + ": cannot write; nothing was changed");
    }
    out.close();
    if (auto perms = llvm::sys::fs::getPermissions(c.path))
      (void)llvm::sys::fs::setPermissions(tmp, *perms);
  }
  for (size_t i = 0; i < p.changes.size(); ++i) {
    const FileChange& c = p.changes[i];
    if (std::rename(tmpOf(c.path).c_str(), c.path.c_str()) == 0) continue;
    // Put back what was already replaced, so the tree is as it was.
    for (size_t j = 0; j < i; ++j) {
      const FileChange& done = p.changes[j];
      std::string tmp = tmpOf(done.path);
      std::ofstream back(tmp, std::ios::binary | std::ios::trunc);
      back << done.before;
      back.close();
      std::rename(tmp.c_str(), done.path.c_str());
    }
    removeTemps();
    throw std::runtime_error(c.file + ": cannot replace; every file was restored");
  }
}

}  // namespace gridlock::rewrite
