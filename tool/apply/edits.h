// The edits of a rewrite, whatever the language it rewrites, made into files: each file read
// and checked against the scan (digest), its edits checked against each other (conflicts,
// identical edits once), finished by the language's own step (C++: #includes and
// formatting, rewrite/cpp/finish.h), and its new contents built. The result is what the other
// parts of this library show (unified_diff.h), export (replacements_yaml.h) and write
// (write.h), in the spirit of clang-apply-replacements.
#pragma once

#include "facts/kinds.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gridlock::apply {

// Replace `length` bytes at `offset` of `file` (root-relative) with `text`.
struct Edit {
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
  facts::Strategy strategy;  // the strategy that makes it
  std::string why;           // "file:line:col substitute" for reports and conflicts
  // An argument inserted before a written one (`text` is "value, "): the parameter's name, so
  // that the language's finishing step writes it in the call's own style
  // (rewrite/cpp/argument_style.h). An edit merged from two has none.
  std::string argument = {};
};

// One replacement a file's change makes, final: byte offsets of the file as it was scanned.
struct Replacement {
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
};

struct FileChange {
  std::string file;  // root-relative
  std::string path;  // absolute
  std::string before, after;
  // Sorted by offset (an insertion before a replacement at the same offset), none overlapping.
  std::vector<Replacement> replacements;
};

struct Prepared {
  std::vector<FileChange> changes;        // files that change, sorted by file
  std::vector<std::string> conflicts;     // "file: edit A overlaps edit B"
  std::vector<std::string> changedFiles;  // "file: ..." changed since the scan
  std::vector<std::string> errors;        // anything else that stops the rewrite
  bool ok() const { return conflicts.empty() && changedFiles.empty() && errors.empty(); }
};

// The line break most of the file's lines end with (clang-format's DeriveLineEnding rule):
// "\r\n", "\r" (a carriage return alone, as CPython reads old Mac files) or "\n" (also on a
// tie). The lines a rewrite writes end so too, in any language.
std::string lineBreakOf(const std::string& text);
// `text`, to be written just after the byte `before` ('\0' at the file's start), with every
// '\n' it writes spelled `lineBreak` (one already preceded by '\r', in it or that byte, is
// left alone).
std::string withLineBreak(const std::string& text, const std::string& lineBreak, char before);

// A language's last step for one file: from its edits (checked, each once, sorted by offset)
// to `c.replacements` (C++: the #includes the edits need, clang-format's formatting, the
// file's line endings). False when it stops the file, with `out` told why.
using Finish = std::function<bool(FileChange& c, const std::vector<Edit>& edits, Prepared& out)>;

// Reads every file `edits` name from `root` (an absolute name is taken as it is), refuses files
// whose MD5 differs from `digests` (root-relative file -> MD5 at scan time) or that it lacks,
// reports overlapping edits (identical edits count once; an insertion where a replacement
// starts joins it) and edits past the end, finishes each file (without `finish`, its edits are
// its replacements) and builds the new contents. Files whose contents do not change are left
// out.
Prepared prepare(const std::vector<Edit>& edits, const std::map<std::string, std::string>& digests,
                 const std::string& root, const Finish& finish = {});

// Absolute path -> new contents, for re-parsing the result before writing it.
std::map<std::string, std::string> overlayOf(const Prepared& p);

}  // namespace gridlock::apply
