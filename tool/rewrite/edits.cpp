#include "rewrite/edits.h"

#include "rewrite/argument_style.h"
#include "rewrite/include_placement.h"
#include "rewrite/unified_diff.h"
#include "rules/forward_declaration.h"
#include "support/file_io.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/ReplacementsYaml.h>
#include <llvm/Support/YAMLTraits.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <climits>
#include <set>
#include <tuple>

namespace gridlock::rewrite {
namespace {

std::string joinPath(const std::string& root, const std::string& file) {
  if (!file.empty() && file[0] == '/') return file;
  return root + "/" + file;
}

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }

// The file as it was scanned, or why not: `out` gets what stops it.
bool readAsScanned(FileChange& c, const index::Inventory& inv, Prepared& out) {
  std::optional<std::string> text = support::readFile(c.path);
  if (!text) {
    out.errors.push_back(c.file + ": cannot read");
    return false;
  }
  c.before = std::move(*text);
  auto digest = inv.digests.find(c.file);
  if (digest == inv.digests.end()) {
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

// Whether the line before `at` (a line start) is an #include: an insertion there extends a block.
bool afterInclude(const std::string& text, size_t at) {
  if (at < 2) return false;
  size_t start = text.rfind('\n', at - 2);
  start = start == std::string::npos ? 0 : start + 1;
  return text.compare(start, 8, "#include") == 0;
}

// An #include inserted right before code, not at the end of an include block (a file that
// had none: clang-format puts it after the guard, against the next declaration), gets the
// blank line a maintainer leaves there.
clang::tooling::Replacements separateIncludes(const std::string& before,
                                              const clang::tooling::Replacements& reps) {
  clang::tooling::Replacements out;
  for (const auto& r : reps) {
    std::string text = r.getReplacementText().str();
    size_t at = r.getOffset();
    bool inserted = r.getLength() == 0 && text.rfind("#include ", 0) == 0 && !text.empty() &&
                    text.back() == '\n';
    if (inserted && at < before.size() && before[at] != '\n' && before[at] != '\r' &&
        before[at] != '#' && !afterInclude(before, at))
      text += "\n";
    if (auto err = out.add(clang::tooling::Replacement(r.getFilePath(), at, r.getLength(), text))) {
      llvm::consumeError(std::move(err));
      return reps;  // as clang-format left them, rather than lose one
    }
  }
  return out;
}

// Whether most of the file's lines end in CRLF (clang-format's DeriveLineEnding rule).
bool usesCrlf(const std::string& text) {
  size_t crlf = 0, lf = 0;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') ++(i > 0 && text[i - 1] == '\r' ? crlf : lf);
  return crlf > lf;
}

// The replacements with every line break they write spelled CRLF: the edits, clang-format's
// include insertion and the strategies' new lines (Collapse's declaration) all write '\n'.
// A '\n' already preceded by '\r' (in the text, or in the file just before an insertion) is
// left alone.
clang::tooling::Replacements withCrlf(const std::string& before,
                                      const clang::tooling::Replacements& reps) {
  clang::tooling::Replacements out;
  for (const auto& r : reps) {
    std::string text;
    llvm::StringRef in = r.getReplacementText();
    for (size_t i = 0; i < in.size(); ++i) {
      char prev = i > 0 ? in[i - 1] : (r.getOffset() > 0 ? before[r.getOffset() - 1] : '\0');
      if (in[i] == '\n' && prev != '\r') text += '\r';
      text += in[i];
    }
    // Same offsets and lengths, and they did not overlap before: adding cannot fail.
    llvm::cantFail(
        out.add(clang::tooling::Replacement(r.getFilePath(), r.getOffset(), r.getLength(), text)));
  }
  return out;
}

// The replacements of one file: its edits, its #includes, cleaned up and formatted the way
// the project formats (a .clang-format that applies), else not formatted at all (includes
// are still put in their block). False, with `out` told why, when that fails.
bool replacementsOf(FileChange& c, const std::vector<Edit>& edits,
                    const std::set<std::string>& includes,
                    const std::map<std::string, std::string>& forwards, Prepared& out) {
  clang::tooling::Replacements reps;
  bool conflict = false;
  for (const auto& e : edits)
    if (auto err = reps.add(
            clang::tooling::Replacement(c.path, e.offset, e.length, styledArgument(c.before, e)))) {
      out.conflicts.push_back(c.file + ": " + e.why + ": " + errorText(std::move(err)));
      conflict = true;
    }
  if (conflict) return false;
  // A type the header only takes by reference or pointer is declared, not included.
  std::set<std::string> full = includes;
  std::string declarations;
  for (const auto& [header, declaration] : forwards) {
    std::string lines = rules::forwardDeclarationLines(declaration);
    if (includesHeader(c.before, header) || declaresForward(c.before, declaration)) continue;
    if (lines.empty() || !forwardDeclarationOffset(c.before))
      full.insert(header);
    else
      declarations += "\n" + lines;
  }
  if (!declarations.empty()) {
    size_t at = *forwardDeclarationOffset(c.before);
    if (at < c.before.size() && c.before[at] != '\n' && c.before[at] != '\r') declarations += "\n";
    if (auto err = reps.add(clang::tooling::Replacement(c.path, at, 0, declarations)))
      out.errors.push_back(c.file + ": forward declarations: " + errorText(std::move(err)));
  }
  std::map<size_t, std::string> inBlock;  // offset -> the #include lines that join a block there
  for (const auto& h : full) {
    std::string spelled = h.front() == '<' || h.front() == '"' ? h : "\"" + h + "\"";
    if (includesHeader(c.before, h)) continue;
    if (auto at = blockOffset(
            c.before, spelled.front() == '"' ? spelled.substr(1, spelled.size() - 2) : "")) {
      inBlock[*at] += "#include " + spelled + "\n";
      continue;
    }
    if (auto err =
            reps.add(clang::tooling::Replacement(c.path, UINT_MAX, 0, "#include " + spelled)))
      out.errors.push_back(c.file + ": #include " + spelled + ": " + errorText(std::move(err)));
  }
  for (const auto& [at, lines] : inBlock)
    if (auto err = reps.add(clang::tooling::Replacement(c.path, at, 0, lines)))
      out.errors.push_back(c.file + ": " + lines + errorText(std::move(err)));
  auto style = clang::format::getStyle("file", c.path, "none", c.before);
  if (!style) {
    out.errors.push_back(c.file + ": .clang-format: " + errorText(style.takeError()));
    return false;
  }
  auto cleaned = clang::format::cleanupAroundReplacements(c.before, reps, *style);
  if (!cleaned) {
    out.errors.push_back(c.file + ": " + errorText(cleaned.takeError()));
    return false;
  }
  reps = separateIncludes(c.before, *cleaned);
  if (!style->DisableFormat) {
    auto formatted = clang::format::formatReplacements(c.before, reps, *style);
    if (!formatted) {
      out.errors.push_back(c.file + ": formatting: " + errorText(formatted.takeError()));
      return false;
    }
    reps = *formatted;
  }
  c.replacements = usesCrlf(c.before) ? withCrlf(c.before, reps) : reps;
  return true;
}

// Whether `header`, as an #include spells it, is `file` (root-relative) itself: the header
// that defines the type needs neither itself nor a forward declaration of it.
bool isItself(const std::string& file, const std::string& header) {
  return file == header || file.ends_with("/" + header);
}

}  // namespace

Prepared prepare(const Plan& plan, const index::Inventory& inv, const std::string& root) {
  Prepared out;
  std::map<std::string, std::vector<Edit>> byFile;
  for (const auto& e : plan.edits) byFile[e.file].push_back(e);
  std::map<std::string, std::set<std::string>> includes;
  for (const auto& i : plan.includes)
    if (i.forward.empty() && !isItself(i.file, i.header)) includes[i.file].insert(i.header);
  // A forward declaration serves a file only where nothing there needs the whole type.
  std::map<std::string, std::map<std::string, std::string>> forwards;
  for (const auto& i : plan.includes)
    if (!i.forward.empty() && !isItself(i.file, i.header) && !includes[i.file].count(i.header))
      forwards[i.file][i.header] = i.forward;

  for (auto& [file, edits] : byFile) {
    FileChange c;
    c.file = file;
    c.path = joinPath(root, file);
    if (!readAsScanned(c, inv, out) || !uniqueEdits(c, edits, out) ||
        !replacementsOf(c, edits, includes[file], forwards[file], out))
      continue;
    auto after = clang::tooling::applyAllReplacements(c.before, c.replacements);
    if (!after) {
      out.errors.push_back(file + ": " + errorText(after.takeError()));
      continue;
    }
    c.after = *after;
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

}  // namespace gridlock::rewrite
