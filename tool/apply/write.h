// Writing a prepared rewrite into the user's tree, recoverably: a journal first
// (apply/journal.h), then every file's old contents kept and its new contents in a
// temporary beside it, then every file's digest checked again and each renamed into place.
#pragma once

#include "apply/edits.h"
#include "apply/journal.h"

#include <functional>
#include <string>

namespace gridlock::apply {

struct WriteOptions {
  bool force = false;  // replace read-only files too (their mode is kept)
  // Test hook, called at each step right after its crash point: `n` is the file's index for
  // the per-file steps, 0 for the others.
  std::function<void(apply::ApplyStep, size_t n)> onStep;
};

// Writes every change of `p` into the tree at `root` (real path; the journal goes in
// ROOT/.gridlock-journal). Refuses, writing nothing, when a file resolves (its links followed)
// outside the root, was deleted or changed since the scan, is read-only (without `force`), is
// not a regular file, or belongs to another user; when another gridlock process is writing the
// tree, or an interrupted apply left its journal. Each file's digest is checked again just before
// it is replaced: a file that changed meanwhile stops the write, and the files already replaced are
// put back. Any failure (a full disk, a rename refused) leaves the tree as it was, without
// temporaries. Throws apply::WriteRefused, whose lines name each file and reason; when the tree
// cannot be put back (a file replaced by gridlock was changed again meanwhile), the journal is kept
// and the last line says to run `gridlock rewrite --recover`.
void writeAll(const Prepared& p, const std::string& root, const WriteOptions& o = {});

}  // namespace gridlock::apply
