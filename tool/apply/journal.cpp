#include "apply/journal.h"

#include "support/confine.h"
#include "support/crash_point.h"
#include "support/file_io.h"
#include "support/ownership.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

namespace gridlock::apply {
namespace {

constexpr std::string_view kMagic = "gridlock rewrite journal 1";

std::string joinProblems(const std::vector<std::string>& problems) {
  return problems.empty() ? std::string("refused") : problems.front();
}

[[noreturn]] void refuse(const std::string& problem) { throw WriteRefused({problem}); }

std::string errnoText(int err) { return std::strerror(err); }

// Every name in `dir` but . and ..; empty when it cannot be read.
std::vector<std::string> namesIn(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  ::closedir(d);
  return out;
}

// Opens `dir` and takes its lock (`op`: LOCK_EX or LOCK_SH, possibly with LOCK_NB); -1 with
// errno set, and `busy` when another process holds it.
int openLocked(const std::string& dir, int op, bool& busy) {
  busy = false;
  // Never through a link: the directory itself, or nothing.
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  while (::flock(fd, op) != 0) {
    if (errno == EINTR) continue;
    busy = errno == EWOULDBLOCK;
    int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

bool isRegular(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Why the journal directory of `root` (lstat'ed as `st`) is not acted on; "" when it is.
std::string ignoredBecause(const std::string& root, const struct stat& st) {
  if (!S_ISDIR(st.st_mode))
    return std::string(S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory") +
           ", which gridlock never makes";
  return support::distrust(st.st_uid, root, support::TrustedOwners::User);
}

// The journal at `path` of the tree at `root`, each entry checked to name a file under it.
// What it refuses is said so that a scan can print it too: it is no reason to run --recover.
Journal readJournal(const std::string& root, const std::string& path) {
  std::string remove = ", so it is no journal of an apply; remove " + support::dirOf(path) +
                       " (gridlock leaves the tree as it is)";
  if (!isRegular(path)) refuse(path + ": not a regular file" + remove);
  std::optional<std::string> text = support::readFile(path);
  if (!text) refuse(path + ": cannot read: " + errnoText(errno));
  Journal j = parseJournal(*text, path);
  for (const auto& e : j.entries)
    if (std::string why = outsideRoot(root, e); !why.empty())
      refuse(path + ": names " + e.file + ", " + why + "; gridlock writes only under the root" +
             remove);
  return j;
}

// "" when the journal of `root` is missing (no file mixed) or one --recover acts on, else why
// --recover refuses it. Read without the lock: the journal is replaced whole, by a rename.
std::string refusedJournal(const std::string& root) {
  std::string path = root + "/" + std::string(kJournalDirName) + "/journal";
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return "";
  try {
    readJournal(root, path);
  } catch (const WriteRefused& e) {
    return e.what();
  }
  return "";
}

}  // namespace

void reached(ApplyStep step) { support::crashPoint(kApplySteps[static_cast<size_t>(step)]); }
void reached(RecoverStep step) { support::crashPoint(kRecoverSteps[static_cast<size_t>(step)]); }

WriteRefused::WriteRefused(std::vector<std::string> p)
    : std::runtime_error(joinProblems(p)), problems(std::move(p)) {}

std::string serializeJournal(const Journal& j) {
  std::ostringstream out;
  out << kMagic << "\npid " << j.pid << "\nfiles " << j.entries.size() << "\n";
  for (const auto& e : j.entries)
    out << e.oldDigest << " " << e.newDigest << " " << std::oct << e.meta.mode << std::dec << " "
        << e.meta.uid << " " << e.meta.gid << " " << e.file << "\n";
  out << "end\n";
  return out.str();
}

Journal parseJournal(const std::string& text, const std::string& where) {
  auto damaged = [&](const std::string& why) -> Journal {
    refuse(where + ": not a whole journal (" + why + "); nothing was changed: restore the files " +
           "from version control, then remove it");
  };
  std::istringstream in(text);
  std::string line;
  Journal j;
  size_t count = 0;
  if (!std::getline(in, line) || line != kMagic) return damaged("no header");
  if (!std::getline(in, line) || std::sscanf(line.c_str(), "pid %ld", &j.pid) != 1)
    return damaged("no pid");
  if (!std::getline(in, line) || std::sscanf(line.c_str(), "files %zu", &count) != 1)
    return damaged("no count");
  for (size_t i = 0; i < count; ++i) {
    if (!std::getline(in, line)) return damaged("fewer files than it says");
    std::istringstream fields(line);
    JournalEntry e;
    unsigned mode = 0;
    fields >> e.oldDigest >> e.newDigest >> std::oct >> mode >> std::dec >> e.meta.uid >>
        e.meta.gid;
    e.meta.mode = mode;
    if (!fields || fields.get() != ' ' || e.oldDigest.size() != 32 || e.newDigest.size() != 32)
      return damaged("line " + std::to_string(i + 4));
    std::getline(fields, e.file);
    if (e.file.empty()) return damaged("line " + std::to_string(i + 4));
    j.entries.push_back(std::move(e));
  }
  if (!std::getline(in, line) || line != "end") return damaged("no end");
  return j;
}

std::string outsideRoot(const std::string& root, const JournalEntry& e) {
  if (e.file[0] == '/') return "an absolute path";
  for (size_t start = 0; start <= e.file.size();) {
    size_t end = std::min(e.file.find('/', start), e.file.size());
    if (e.file.compare(start, end - start, "..") == 0 && end - start == 2)
      return "a path through ..";
    start = end + 1;
  }
  std::string real;
  try {
    real = support::resolvePath(root + "/" + e.file);
  } catch (const support::WriteError& err) {
    return err.what();
  }
  if (real == root || !support::isUnder(root, real))
    return "outside the root once its symlinks are followed (" + real + ")";
  return "";
}

bool holdsJournal(JournalState state) {
  return state == JournalState::Busy || state == JournalState::Interrupted;
}

JournalState journalState(const std::string& root) {
  std::string dir = root + "/" + std::string(kJournalDirName);
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) return JournalState::None;
  if (std::string why = ignoredBecause(root, st); !why.empty()) {
    support::warnOnce(dir + ": ignored, not a journal of yours: " + why);
    return JournalState::Ignored;
  }
  // A shared probe: it never makes a writer (blocking) or a recovery (retrying) give up.
  bool busy = false;
  int fd = openLocked(dir, LOCK_SH | LOCK_NB, busy);
  if (fd >= 0) ::close(fd);
  return busy ? JournalState::Busy : JournalState::Interrupted;
}

std::string journalRootAtOrAbove(const std::string& start) {
  char buf[PATH_MAX];
  std::string dir = ::realpath(start.c_str(), buf) ? std::string(buf) : start;
  while (true) {
    if (holdsJournal(journalState(dir))) return dir;
    if (dir == "/" || dir.empty() || dir.find('/') == std::string::npos) return "";
    dir = support::dirOf(dir);
  }
}

std::string journalRootBelow(const std::string& root, const std::set<std::string>& files) {
  std::set<std::string> probed;
  for (const auto& file : files) {
    if (file.empty() || file[0] == '/') continue;
    // Each directory on the way from the root to the file, once over all files.
    for (size_t slash = file.find('/'); slash != std::string::npos;
         slash = file.find('/', slash + 1)) {
      std::string dir = root + "/" + file.substr(0, slash);
      if (!probed.insert(dir).second) continue;
      if (holdsJournal(journalState(dir))) return dir;
    }
  }
  if (holdsJournal(journalState(root))) return root;
  return "";
}

std::string journalMessage(const std::string& root, JournalState state) {
  std::string dir = root + "/" + std::string(kJournalDirName);
  if (state == JournalState::Busy)
    return dir + ": another gridlock process is writing this tree; wait for it to finish";
  if (state == JournalState::Ignored)
    return dir + ": not a journal of yours (see the warning above): only its owner's gridlock " +
           "may recover it; remove it to write this tree";
  if (state == JournalState::Interrupted) {
    // A journal --recover refuses is not worth running it for.
    if (std::string refused = refusedJournal(root); !refused.empty()) return refused;
  }
  return dir + ": a `gridlock rewrite --apply` was interrupted here and the tree may hold " +
         "old and new files mixed; run `gridlock rewrite --recover --root " + root +
         "` to put every file back as it was";
}

JournalDir JournalDir::create(const std::string& root) {
  std::string dir = root + "/" + std::string(kJournalDirName);
  if (::mkdir(dir.c_str(), 0700) != 0) {
    int err = errno;
    if (err == EEXIST) refuse(journalMessage(root, journalState(root)));
    refuse(dir + ": cannot create the journal: " + errnoText(err));
  }
  // Only probes (journalState, a moment each) can hold it now.
  bool busy = false;
  int fd = openLocked(dir, LOCK_EX, busy);
  if (fd < 0) refuse(dir + ": cannot lock the journal: " + errnoText(errno));
  JournalDir out(root, fd);
  try {
    if (::mkdir((dir + "/old").c_str(), 0700) != 0)
      refuse(dir + "/old: cannot create: " + errnoText(errno));
    support::syncDirectory(dir);
    support::syncDirectory(root);
  } catch (const support::WriteError& e) {
    out.removeDir();
    refuse(e.what());
  } catch (const WriteRefused&) {
    out.removeDir();
    throw;
  }
  return out;
}

JournalDir JournalDir::lock(const std::string& root) {
  std::string dir = root + "/" + std::string(kJournalDirName);
  bool busy = false;
  int fd = -1;
  // A writer holds it for its whole write; a probe for a moment: retry past the probes.
  for (int attempt = 0; attempt < 20 && fd < 0; ++attempt) {
    fd = openLocked(dir, LOCK_EX | LOCK_NB, busy);
    if (fd < 0 && busy) ::usleep(20000);
    if (fd < 0 && !busy) break;
  }
  if (fd < 0) {
    if (busy) refuse(journalMessage(root, JournalState::Busy));
    refuse(dir + ": cannot lock the journal: " + errnoText(errno));
  }
  return JournalDir(root, fd);
}

JournalDir::JournalDir(JournalDir&& other) noexcept
    : root_(std::move(other.root_)), fd_(other.fd_) {
  other.fd_ = -1;
}

JournalDir::~JournalDir() {
  if (fd_ >= 0) ::close(fd_);
}

std::string JournalDir::dir() const { return root_ + "/" + std::string(kJournalDirName); }
std::string JournalDir::journalPath() const { return dir() + "/journal"; }

std::string JournalDir::pathOf(const JournalEntry& e) const {
  return !e.file.empty() && e.file[0] == '/' ? e.file : root_ + "/" + e.file;
}

std::string JournalDir::backupOf(size_t n) const { return dir() + "/old/" + std::to_string(n); }

std::string JournalDir::tempOf(const Journal& j, size_t n) const {
  return support::tempPathFor(pathOf(j.entries[n]), j.pid);
}

bool JournalDir::hasJournal() const {
  struct stat st;
  return ::lstat(journalPath().c_str(), &st) == 0;
}

Journal JournalDir::read() const { return readJournal(root_, journalPath()); }

void JournalDir::write(const Journal& j) const {
  for (const auto& e : j.entries)
    if (e.file.find('\n') != std::string::npos)
      refuse(e.file + ": a file name with a line break cannot be journaled");
  std::string tmp = journalPath() + ".tmp";
  support::writeNewFile(tmp, serializeJournal(j), nullptr);
  if (::rename(tmp.c_str(), journalPath().c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    refuse(journalPath() + ": cannot write: " + errnoText(err));
  }
  support::syncDirectory(dir());
}

void JournalDir::keepOld(const Journal& j, size_t n, std::string_view contents) const {
  std::string path = pathOf(j.entries[n]), backup = backupOf(n);
  // A hard link keeps the old file itself (its bytes, mode, owner), costs no space, and stays
  // intact: the rename replaces the name, never the file.
  if (::link(path.c_str(), backup.c_str()) == 0) return;
  int err = errno;
  if (err != EXDEV && err != EPERM && err != EMLINK && err != EOPNOTSUPP)
    refuse(backup + ": cannot keep the old contents of " + j.entries[n].file + ": " +
           errnoText(err));
  support::writeNewFile(backup, contents, &j.entries[n].meta);
}

void JournalDir::restore(const Journal& j, size_t n) const {
  std::string path = pathOf(j.entries[n]), backup = backupOf(n);
  if (::rename(backup.c_str(), path.c_str()) == 0) return;
  if (errno != EXDEV) refuse(path + ": cannot put back its old contents: " + errnoText(errno));
  copyBack(j, n);
}

bool JournalDir::oldKept(const Journal& j, size_t n) const {
  return isRegular(backupOf(n)) && support::fileDigest(backupOf(n)) == j.entries[n].oldDigest;
}

void JournalDir::copyBack(const Journal& j, size_t n) const {
  std::string path = pathOf(j.entries[n]), backup = backupOf(n);
  std::optional<std::string> old = isRegular(backup) ? support::readFile(backup) : std::nullopt;
  if (!old || support::md5Hex(*old) != j.entries[n].oldDigest)
    refuse(backup + ": not the old contents of " + j.entries[n].file);
  // What the file it replaces has, never what the journal says, and no set-id bit.
  support::FileMeta keep = support::metaOf(path);
  keep.mode &= 0777;
  std::string tmp = tempOf(j, n);
  ::unlink(tmp.c_str());
  support::writeNewFile(tmp, *old, &keep);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    refuse(path + ": cannot put back its old contents: " + errnoText(err));
  }
}

void JournalDir::commit() const {
  if (::unlink(journalPath().c_str()) != 0 && errno != ENOENT)
    refuse(journalPath() + ": cannot remove: " + errnoText(errno));
  support::syncDirectory(dir());
}

void JournalDir::removeOld() const {
  std::string old = dir() + "/old";
  struct stat st;
  // Only the directory gridlock made: never through a link to another.
  if (::lstat(old.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;
  for (const auto& name : namesIn(old))
    if (name.find_first_not_of("0123456789") == std::string::npos)
      ::unlink((old + "/" + name).c_str());
  ::rmdir(old.c_str());
  ::unlink((journalPath() + ".tmp").c_str());
}

void JournalDir::removeDir() const {
  if (::rmdir(dir().c_str()) != 0 && errno != ENOENT) {
    std::string left;
    for (const auto& name : namesIn(dir())) left += (left.empty() ? "" : ", ") + name;
    refuse(dir() + ": holds files gridlock did not write (" + left + "); remove it by hand");
  }
  support::syncDirectory(root_);
}

}  // namespace gridlock::apply
