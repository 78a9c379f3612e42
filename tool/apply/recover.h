// `gridlock rewrite --recover`: puts a tree whose `rewrite --apply` was interrupted (killed,
// a power loss) back as it was before the apply, from its journal (apply/journal.h). Rolling
// back, never forward: the old contents are what the user last saw and checked in.
#pragma once

#include <string>
#include <vector>

namespace gridlock::apply {

struct RecoverReport {
  bool journal = false;  // there was a journal directory to recover from
  // There was one, but not the user's own (or not a directory): ignored, with a warning.
  bool ignored = false;
  // It held a journal: without one the apply was killed before writing it or after removing
  // it, and no file is mixed.
  bool written = false;
  std::vector<std::string> restored;   // files put back to their old contents
  std::vector<std::string> unchanged;  // files that still held their old contents
  // With force: files changed since (neither old nor new contents), left as they are; their
  // old contents saved beside them as FILE.gridlock-old.
  std::vector<std::string> kept;
};

// Recovers the tree at `root` (a real path). A file that holds neither its old nor its new
// contents (edited or deleted since the interruption) refuses the whole recovery, naming each
// such file and where its old contents are kept, unless `force`: then those files are left as
// they are and their old contents saved as FILE.gridlock-old. Throws WriteRefused (nothing
// changed) on such a refusal, when another gridlock process holds the journal, or when the
// journal is damaged. Safe to interrupt and run again.
RecoverReport recover(const std::string& root, bool force);

}  // namespace gridlock::apply
