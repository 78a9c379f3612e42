#include "rewrite/cpp/finish.h"

#include "rewrite/cpp/argument_style.h"
#include "rewrite/cpp/include_placement.h"
#include "rules/forward_declaration.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include <climits>
#include <map>
#include <set>

namespace gridlock::rewrite::cpp {
namespace {

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }

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

// The replacements with every line break they write spelled CRLF: the edits, clang-format's
// include insertion and the strategies' new lines (Collapse's declaration) all write '\n'.
// A '\n' already preceded by '\r' (in the text, or in the file just before an insertion) is
// left alone.
clang::tooling::Replacements withCrlf(const std::string& before,
                                      const clang::tooling::Replacements& reps) {
  clang::tooling::Replacements out;
  for (const auto& r : reps) {
    std::string text = apply::withLineBreak(r.getReplacementText().str(), "\r\n",
                                            r.getOffset() > 0 ? before[r.getOffset() - 1] : '\0');
    // Same offsets and lengths, and they did not overlap before: adding cannot fail.
    llvm::cantFail(
        out.add(clang::tooling::Replacement(r.getFilePath(), r.getOffset(), r.getLength(), text)));
  }
  return out;
}

// The replacements of one file: its edits, its #includes, cleaned up and formatted the way
// the project formats (a .clang-format that applies), else not formatted at all (includes
// are still put in their block). False, with `out` told why, when that fails.
bool replacementsOf(apply::FileChange& c, const std::vector<Edit>& edits,
                    const std::set<std::string>& includes,
                    const std::map<std::string, std::string>& forwards, apply::Prepared& out) {
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
  if (apply::lineBreakOf(c.before) == "\r\n") reps = withCrlf(c.before, reps);
  // Ordered by offset, an insertion before a replacement at the same one, none overlapping:
  // what apply::FileChange's replacements are.
  for (const auto& r : reps)
    c.replacements.push_back({r.getOffset(), r.getLength(), r.getReplacementText().str()});
  return true;
}

// Whether `header`, as an #include spells it, is `file` (root-relative) itself: the header
// that defines the type needs neither itself nor a forward declaration of it.
bool isItself(const std::string& file, const std::string& header) {
  return file == header || file.ends_with("/" + header);
}

}  // namespace

apply::Prepared prepare(const CppState& planned, const std::string& root) {
  std::map<std::string, std::set<std::string>> includes;
  for (const auto& i : planned.includes)
    if (i.forward.empty() && !isItself(i.file, i.header)) includes[i.file].insert(i.header);
  // A forward declaration serves a file only where nothing there needs the whole type.
  std::map<std::string, std::map<std::string, std::string>> forwards;
  for (const auto& i : planned.includes)
    if (!i.forward.empty() && !isItself(i.file, i.header) && !includes[i.file].count(i.header))
      forwards[i.file][i.header] = i.forward;
  return apply::prepare(
      planned.plan.edits, planned.inv.digests, root,
      [&](apply::FileChange& c, const std::vector<Edit>& edits, apply::Prepared& out) {
        return replacementsOf(c, edits, includes[c.file], forwards[c.file], out);
      });
}

}  // namespace gridlock::rewrite::cpp
