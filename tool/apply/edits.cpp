#include "apply/edits.h"

#include "support/file_io.h"

#include <algorithm>
#include <optional>
#include <tuple>

namespace gridlock::apply {

std::string lineBreakOf(const std::string& text) {
  size_t crlf = 0, lf = 0, cr = 0;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      ++(i > 0 && text[i - 1] == '\r' ? crlf : lf);
    else if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))
      ++cr;
  if (crlf > lf && crlf > cr) return "\r\n";
  if (cr > lf && cr > crlf) return "\r";
  return "\n";
}

std::string withLineBreak(const std::string& text, const std::string& lineBreak, char before) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char prev = i > 0 ? text[i - 1] : before;
    if (text[i] == '\n' && prev != '\r')
      out += lineBreak;
    else
      out += text[i];
  }
  return out;
}

namespace {

std::string joinPath(const std::string& root, const std::string& file) {
  if (!file.empty() && file[0] == '/') return file;
  return root + "/" + file;
}

// The file as it was scanned, or why not: `out` gets what stops it.
bool readAsScanned(FileChange& c, const std::map<std::string, std::string>& digests,
                   Prepared& out) {
  std::optional<std::string> text = support::readFile(c.path);
  if (!text) {
    out.errors.push_back(c.file + ": cannot read");
    return false;
  }
  c.before = std::move(*text);
  auto digest = digests.find(c.file);
  if (digest == digests.end()) {
    out.changedFiles.push_back(c.file + ": the scan recorded no digest for it");
    return false;
  }
  if (digest->second != support::md5Hex(c.before)) {
    out.changedFiles.push_back(c.file + ": changed since it was scanned");
    return false;
  }
  return true;
}

// The edits once each: identical edits (a header seen by several translation units) count
// once, an insertion where a replacement starts joins it; any other overlap is a conflict.
// False when there is one.
bool uniqueEdits(const FileChange& c, std::vector<Edit>& edits, Prepared& out) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return std::tie(a.offset, a.length, a.text) < std::tie(b.offset, b.length, b.text);
  });
  std::vector<Edit> unique;
  bool ok = true;
  for (const auto& e : edits) {
    if (e.offset + e.length > c.before.size()) {
      out.errors.push_back(c.file + ": edit " + e.why + " lies past the end of the file");
      ok = false;
      continue;
    }
    if (!unique.empty()) {
      Edit& last = unique.back();
      if (last.offset == e.offset && last.length == e.length && last.text == e.text) continue;
      // An insertion where a replacement starts (Thread's argument before an argument that is
      // itself a read) goes before the replaced text: one edit. Sorted by length, the
      // insertion comes first.
      if (last.offset == e.offset && last.length == 0 && e.length > 0) {
        last = {
            e.file, e.offset, e.length, last.text + e.text, e.strategy, last.why + " + " + e.why};
        continue;
      }
      bool overlap = e.offset < last.offset + last.length ||
                     (e.offset == last.offset && (e.length == 0 || last.length == 0));
      if (overlap) {
        out.conflicts.push_back(c.file + ": " + e.why + " (bytes " + std::to_string(e.offset) +
                                "+" + std::to_string(e.length) + ") overlaps " + last.why +
                                " (bytes " + std::to_string(last.offset) + "+" +
                                std::to_string(last.length) + ")");
        ok = false;
        continue;
      }
    }
    unique.push_back(e);
  }
  edits = std::move(unique);
  return ok;
}

// `c.after` from `c.before` and its replacements; false, with `out` told why, when one lies
// past the end or overlaps the one before it.
bool applyReplacements(FileChange& c, Prepared& out) {
  std::string after;
  size_t at = 0;
  for (const auto& r : c.replacements) {
    if (r.offset < at || r.offset + size_t{r.length} > c.before.size()) {
      out.errors.push_back(
          c.file + ": the replacement of bytes " + std::to_string(r.offset) + "+" +
          std::to_string(r.length) +
          (r.offset < at ? " overlaps the one before it" : " lies past the end of the file"));
      return false;
    }
    after.append(c.before, at, r.offset - at);
    after += r.text;
    at = r.offset + r.length;
  }
  after.append(c.before, at, std::string::npos);
  c.after = std::move(after);
  return true;
}

}  // namespace

Prepared prepare(const std::vector<Edit>& edits, const std::map<std::string, std::string>& digests,
                 const std::string& root, const Finish& finish) {
  Prepared out;
  std::map<std::string, std::vector<Edit>> byFile;
  for (const auto& e : edits) byFile[e.file].push_back(e);
  for (auto& [file, fileEdits] : byFile) {
    FileChange c;
    c.file = file;
    c.path = joinPath(root, file);
    if (!readAsScanned(c, digests, out) || !uniqueEdits(c, fileEdits, out)) continue;
    if (finish) {
      if (!finish(c, fileEdits, out)) continue;
    } else {
      for (const auto& e : fileEdits) c.replacements.push_back({e.offset, e.length, e.text});
    }
    if (!applyReplacements(c, out)) continue;
    if (c.after != c.before) out.changes.push_back(std::move(c));
  }
  return out;
}

std::map<std::string, std::string> overlayOf(const Prepared& p) {
  std::map<std::string, std::string> out;
  for (const auto& c : p.changes) out[c.path] = c.after;
  return out;
}

}  // namespace gridlock::apply
