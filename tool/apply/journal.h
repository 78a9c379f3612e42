// The journal of `rewrite --apply`: the durable record, written before the first file is
// replaced, that makes an interrupted apply recoverable (apply/recover.h). It lives in
// ROOT/.gridlock-journal/: `journal` (the writer's pid and, per file, its old and new MD5,
// mode, owner, group and path), `old/<n>` (the old contents of the n-th file: a hard link to
// the replaced file, a copy where the file system has no links). The directory is also the
// lock: created exclusively (mkdir) and flock()ed while a gridlock process writes, so a second
// writer is refused and a lock left unheld means the writer died.
//
// A journal is input like any other file: one shipped in a tarball, committed to a repository
// or planted in a shared directory must not make `--recover` write outside the tree. So only a
// journal directory of the user's own is acted on (another's is ignored, with a warning), each
// entry must name a file under the root (not absolute, no `..`, not through a symlink leading
// out), and what it records of a file's mode and owner is never applied: a file put back keeps
// what the file it replaces has, without setuid and setgid bits.
#pragma once

#include "support/atomic_write.h"

#include <array>
#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::apply {

inline constexpr std::string_view kJournalDirName = ".gridlock-journal";

// The crash points (support/crash_point.h) of the write phase, in order. Backup, Temp and
// Renamed are reached once per file, the others once.
enum class ApplyStep : size_t {
  Locked,     // the journal directory created and locked; nothing else written
  Journaled,  // the journal durable; no file touched
  Backup,     // the n-th file's old contents kept in old/<n>
  Temp,       // the n-th file's new contents in its temporary, synced
  Checked,    // every file's digest checked again, just before the first rename
  Renamed,    // the n-th temporary renamed over its file
  Committed,  // every file renamed and synced, the journal removed
  Cleaned,    // the old contents removed; the journal directory still there
  Count
};
inline constexpr std::array<std::string_view, static_cast<size_t>(ApplyStep::Count)> kApplySteps = {
    "apply-locked",  "apply-journaled", "apply-backup",    "apply-temp",
    "apply-checked", "apply-renamed",   "apply-committed", "apply-cleaned"};

// The crash points of `rewrite --recover`, in order (Restored once per file put back).
enum class RecoverStep : size_t {
  Locked,     // the journal directory locked and read
  Cleared,    // the apply's temporaries removed
  Restored,   // the n-th file that held its new contents holds its old ones again
  Committed,  // the journal removed
  Cleaned,    // the old contents removed; the journal directory still there
  Count
};
inline constexpr std::array<std::string_view, static_cast<size_t>(RecoverStep::Count)>
    kRecoverSteps = {"recover-locked", "recover-cleared", "recover-restored", "recover-committed",
                     "recover-cleaned"};

void reached(ApplyStep step);
void reached(RecoverStep step);

// A refusal: what stops the write, one line per problem, already phrased for the user.
class WriteRefused : public std::runtime_error {
 public:
  explicit WriteRefused(std::vector<std::string> problems);
  std::vector<std::string> problems;
};

struct JournalEntry {
  std::string file;  // root-relative: the apply writes only under the root
  std::string oldDigest, newDigest;
  support::FileMeta meta;
};

struct Journal {
  long pid = 0;  // the writer: its temporaries are "<file>.gridlock-tmp.<pid>"
  std::vector<JournalEntry> entries;
};

std::string serializeJournal(const Journal& j);
// Throws WriteRefused when the text is not a whole journal.
Journal parseJournal(const std::string& text, const std::string& where);
// "" when `e` names a file under `root` (a real path); else why not ("an absolute path", "a
// path through ..", "outside the root once its symlinks are followed (/etc/passwd)").
std::string outsideRoot(const std::string& root, const JournalEntry& e);

enum class JournalState { None, Busy, Interrupted, Ignored };
// Whether `root` holds a journal directory, and whether a live process holds its lock. Ignored:
// there is one, but not a directory of the user's own (support/ownership.h) or not a
// directory at all; a warning naming it is printed once.
JournalState journalState(const std::string& root);
// Whether a state means a journal to act on (Busy or Interrupted).
bool holdsJournal(JournalState state);
// `dir` or the closest directory above it that holds a journal directory; "" when none.
std::string journalRootAtOrAbove(const std::string& dir);
// The first directory from `root` down to the directory of any of `files` (root-relative:
// what a scan saw) that holds a journal directory; "" when none. Catches an interrupted apply
// of a narrower root than the scan's, whose journal lies below it.
std::string journalRootBelow(const std::string& root, const std::set<std::string>& files);
// What the user is told about `root`'s journal directory, and what to do: a journal that
// `--recover` would refuse (damaged, naming a file outside the root) is named as such, not
// sent to `--recover`.
std::string journalMessage(const std::string& root, JournalState state);

// A locked journal directory. The lock is released when this is destroyed (or the process
// dies); the directory stays until removeAll().
class JournalDir {
 public:
  // Creates ROOT/.gridlock-journal (exclusively) with old/ inside, and locks it. Throws
  // WriteRefused when it exists (another writer, or an interrupted apply) or cannot be made.
  static JournalDir create(const std::string& root);
  // Locks an existing one; throws WriteRefused when a live process holds it.
  static JournalDir lock(const std::string& root);
  JournalDir(JournalDir&& other) noexcept;
  JournalDir& operator=(JournalDir&&) = delete;
  ~JournalDir();

  const std::string& root() const { return root_; }
  std::string dir() const;
  std::string journalPath() const;
  std::string pathOf(const JournalEntry& e) const;  // absolute
  std::string backupOf(size_t n) const;             // old/<n>
  std::string tempOf(const Journal& j, size_t n) const;

  bool hasJournal() const;
  // The journal, each entry checked to name a file under the root; throws WriteRefused.
  Journal read() const;
  // Writes the journal durably (a temporary, synced, renamed, the directory synced).
  void write(const Journal& j) const;
  // Keeps the n-th file's current contents (`contents`, checked by the caller) as old/<n>.
  void keepOld(const Journal& j, size_t n, std::string_view contents) const;
  // Puts old/<n> back at the n-th file's place (a rename; a copy across file systems): the
  // apply's own way back, with the journal it wrote itself.
  void restore(const Journal& j, size_t n) const;
  // Puts a copy of old/<n> (a regular file holding the old digest) at the n-th file's place,
  // with the mode (less setuid and setgid), owner and group of the file it replaces: the way
  // back from a journal read from disk, which may not be gridlock's.
  void copyBack(const Journal& j, size_t n) const;
  // Whether old/<n> is a regular file holding the n-th file's old contents.
  bool oldKept(const Journal& j, size_t n) const;
  // Removes the journal: from here on the tree is what it is.
  void commit() const;
  // Removes old/ with what it holds (whatever is left of a journal written by gridlock).
  void removeOld() const;
  // Removes the directory, then syncs the root. Files in it that gridlock did not write are
  // left, and named in the WriteRefused thrown.
  void removeDir() const;

 private:
  JournalDir(std::string root, int fd) : root_(std::move(root)), fd_(fd) {}
  std::string root_;
  int fd_ = -1;
};

}  // namespace gridlock::apply
