// From a plan to files: the edits of each file checked against the scan (digest), checked
// against each other (conflicts), completed with #include insertions and the project's
// formatting, then exported (clang-apply-replacements YAML), shown (unified diff) or written
// (rewrite/write.h).
#pragma once

#include "index/inventory.h"
#include "rewrite/plan.h"

#include <clang/Tooling/Core/Replacement.h>

#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite {

struct FileChange {
  std::string file;  // root-relative
  std::string path;  // absolute
  std::string before, after;
  clang::tooling::Replacements replacements;  // final: with includes and formatting
};

struct Prepared {
  std::vector<FileChange> changes;        // files that change, sorted by file
  std::vector<std::string> conflicts;     // "file: edit A overlaps edit B"
  std::vector<std::string> changedFiles;  // "file: ..." changed since the scan
  std::vector<std::string> errors;        // anything else that stops the rewrite
  bool ok() const { return conflicts.empty() && changedFiles.empty() && errors.empty(); }
};

// Reads every file the plan edits from `root`, refuses files whose MD5 differs from the
// scan's digest, reports overlapping edits (identical edits count once), and builds the new
// contents. Formats changed lines when a .clang-format applies to the file.
Prepared prepare(const Plan& plan, const index::Inventory& inv, const std::string& root);

// The YAML clang-apply-replacements reads: one document, every replacement once, absolute
// paths.
std::string exportYaml(const Prepared& p, const std::string& mainSourceFile);

// A unified diff of every change (rewrite/unified_diff.h).
std::string unifiedDiff(const Prepared& p);

// Absolute path -> new contents, for re-parsing the result before writing it.
std::map<std::string, std::string> overlayOf(const Prepared& p);

}  // namespace gridlock::rewrite
