#include "apply/recover.h"

#include "apply/journal.h"
#include "support/atomic_write.h"
#include "support/file_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <set>

namespace gridlock::apply {

namespace {

enum class Now { Old, New, Changed };

Now stateOf(const JournalDir& dir, const JournalEntry& e) {
  // Only a regular file is read: a FIFO or a device in its place is a change, not a hang.
  struct stat st;
  if (::stat(dir.pathOf(e).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Now::Changed;
  std::optional<std::string> digest = support::fileDigest(dir.pathOf(e));
  if (digest == e.oldDigest) return Now::Old;
  if (digest == e.newDigest) return Now::New;
  return Now::Changed;
}

// Saves old/<n> as FILE.gridlock-old (again after an interrupted recovery: same contents), a
// new file of the user's with the mode new files get: the journal's mode and owner are never
// applied.
void saveOld(const JournalDir& dir, const Journal& j, size_t n) {
  std::string saved = dir.pathOf(j.entries[n]) + ".gridlock-old";
  std::optional<std::string> old = support::readFile(dir.backupOf(n));
  if (!old) throw WriteRefused({dir.backupOf(n) + ": cannot read"});
  struct stat st;
  if (::lstat(saved.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      support::fileDigest(saved) == j.entries[n].oldDigest)
    return;
  ::unlink((saved + ".tmp").c_str());
  support::writeNewFile(saved + ".tmp", *old, nullptr);
  if (::rename((saved + ".tmp").c_str(), saved.c_str()) != 0) {
    ::unlink((saved + ".tmp").c_str());
    throw WriteRefused({saved + ": cannot write"});
  }
}

}  // namespace

RecoverReport recover(const std::string& root, bool force) {
  RecoverReport report;
  JournalState state = journalState(root);
  report.ignored = state == JournalState::Ignored;
  if (!holdsJournal(state)) return report;
  report.journal = true;
  JournalDir dir = JournalDir::lock(root);
  if (!dir.hasJournal()) {
    // Made before the journal was durable, or after it was removed: no file is mixed.
    reached(RecoverStep::Locked);
    dir.removeOld();
    dir.removeDir();
    return report;
  }
  report.written = true;
  Journal j = dir.read();
  reached(RecoverStep::Locked);

  std::vector<Now> now;
  std::vector<std::string> problems;
  for (size_t n = 0; n < j.entries.size(); ++n) {
    const JournalEntry& e = j.entries[n];
    now.push_back(stateOf(dir, e));
    bool oldKept = dir.oldKept(j, n);
    if (now[n] == Now::New && !oldKept)
      problems.push_back(e.file + ": holds what the rewrite wrote, and its old contents (" +
                         dir.backupOf(n) +
                         ") are gone or damaged; restore it from version control");
    if (now[n] == Now::Changed && !force)
      problems.push_back(
          e.file + ": changed since the interrupted rewrite (neither its old nor " +
          "its new contents)" +
          (oldKept ? "; its old contents are in " + dir.backupOf(n) : std::string()));
  }
  if (!problems.empty()) {
    problems.push_back("nothing was changed; rerun with --force to put back every other file " +
                       std::string("and leave the changed ones as they are"));
    throw WriteRefused(std::move(problems));
  }

  std::set<std::string> dirs;
  for (size_t n = 0; n < j.entries.size(); ++n) {
    ::unlink(dir.tempOf(j, n).c_str());
    dirs.insert(support::dirOf(dir.pathOf(j.entries[n])));
  }
  for (const auto& d : dirs) support::syncDirectory(d);
  reached(RecoverStep::Cleared);

  for (size_t n = 0; n < j.entries.size(); ++n) {
    const std::string& file = j.entries[n].file;
    if (now[n] == Now::Old) {
      report.unchanged.push_back(file);
    } else if (now[n] == Now::Changed) {
      if (dir.oldKept(j, n)) saveOld(dir, j, n);
      report.kept.push_back(file);
    } else {
      dir.copyBack(j, n);
      report.restored.push_back(file);
      reached(RecoverStep::Restored);
    }
  }
  for (const auto& d : dirs) support::syncDirectory(d);
  dir.commit();
  reached(RecoverStep::Committed);
  dir.removeOld();
  reached(RecoverStep::Cleaned);
  dir.removeDir();
  return report;
}

}  // namespace gridlock::apply
