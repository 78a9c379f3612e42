#include "apply/write.h"

#include "support/atomic_write.h"
#include "support/confine.h"
#include "support/file_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <set>

namespace gridlock::apply {

namespace {

std::string modeText(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

// What a path that should be a regular file is instead ("a directory").
std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "something other than a file";
}

// The file a change replaces, and what must be kept of it.
struct Target {
  std::string path;
  support::FileMeta meta;
};

// What refuses the write before anything is created: one line per file.
std::vector<std::string> preflight(const Prepared& p, const std::string& root, bool force,
                                   std::vector<Target>& targets) {
  std::vector<std::string> problems;
  for (const auto& c : p.changes) {
    Target t;
    try {
      t.path = support::resolvePath(c.path);
    } catch (const support::WriteError& e) {
      problems.push_back(c.file + ": " + e.what());
      targets.push_back(t);
      continue;
    }
    targets.push_back(t);
    // A link from the tree to a file outside it (a source symlinked in) is scanned, but
    // written only where the user gave gridlock the tree: under the root.
    if (!support::isUnder(root, t.path) || t.path == root) {
      problems.push_back(c.file + ": a link to " + t.path + ", outside the root " + root +
                         "; gridlock writes only under the root");
      continue;
    }
    struct stat st;
    if (::stat(t.path.c_str(), &st) != 0) {
      problems.push_back(c.file + (errno == ENOENT
                                       ? ": deleted since it was scanned"
                                       : ": cannot stat: " + std::string(std::strerror(errno))));
      continue;
    }
    targets.back().meta = {st.st_mode & 07777, st.st_uid, st.st_gid};
    if (!S_ISREG(st.st_mode)) {
      problems.push_back(c.file + ": " + kindOf(st.st_mode) +
                         " now, not the file that was scanned");
      continue;
    }
    if (!force && ((st.st_mode & 0222) == 0 || ::access(t.path.c_str(), W_OK) != 0))
      problems.push_back(c.file + ": read-only (mode " + modeText(st.st_mode) +
                         "); pass --force to rewrite it anyway (its mode is kept)");
    if (::geteuid() != 0 && st.st_uid != ::geteuid())
      problems.push_back(c.file + ": belongs to another user (uid " + std::to_string(st.st_uid) +
                         "), whom a replacement could not keep as its owner");
    if (::access(support::dirOf(t.path).c_str(), W_OK) != 0)
      problems.push_back(c.file + ": its directory is not writable");
    std::optional<std::string> digest = support::fileDigest(t.path);
    if (!digest)
      problems.push_back(c.file + ": cannot read");
    else if (*digest != support::md5Hex(c.before))
      problems.push_back(c.file + ": changed since it was scanned; scan again");
  }
  return problems;
}

// One apply: the journal, the files' states, and the way back.
class Apply {
 public:
  Apply(const Prepared& p, const std::vector<Target>& targets, JournalDir dir,
        const WriteOptions& o)
      : p_(p), targets_(targets), dir_(std::move(dir)), o_(o) {
    journal_.pid = ::getpid();
    // Every target lies under the root (preflight): the journal names it relative to it.
    const std::string& root = dir_.root();
    for (size_t i = 0; i < p.changes.size(); ++i) {
      const std::string& path = targets[i].path;
      journal_.entries.push_back({path.substr(root == "/" ? 1 : root.size() + 1),
                                  support::md5Hex(p.changes[i].before),
                                  support::md5Hex(p.changes[i].after), targets[i].meta});
    }
  }

  void run() {
    step(ApplyStep::Locked);
    guard([&] { dir_.write(journal_); });
    step(ApplyStep::Journaled);
    for (size_t i = 0; i < size(); ++i) {
      guard([&] { dir_.keepOld(journal_, i, p_.changes[i].before); }, p_.changes[i].file);
      step(ApplyStep::Backup, i);
    }
    guard([&] { support::syncDirectory(dir_.dir() + "/old"); });
    for (size_t i = 0; i < size(); ++i) {
      guard(
          [&] {
            support::writeNewFile(dir_.tempOf(journal_, i), p_.changes[i].after, &targets_[i].meta);
          },
          p_.changes[i].file);
      ++temps_;
      step(ApplyStep::Temp, i);
    }
    std::vector<std::string> changed;
    for (size_t i = 0; i < size(); ++i)
      if (std::string why = changedSince(i); !why.empty()) changed.push_back(why);
    if (!changed.empty()) abandon(changed);
    step(ApplyStep::Checked);
    for (size_t i = 0; i < size(); ++i) {
      // Again just before the rename: an edit made while the other files were written.
      if (std::string why = changedSince(i); !why.empty()) rollBack({why});
      if (::rename(dir_.tempOf(journal_, i).c_str(), targets_[i].path.c_str()) != 0)
        rollBack({p_.changes[i].file + ": cannot replace: " + std::strerror(errno)});
      ++renamed_;
      step(ApplyStep::Renamed, i);
    }
    try {
      syncDirectories();
    } catch (const support::WriteError& e) {
      rollBack({e.what()});
    }
    dir_.commit();
    step(ApplyStep::Committed);
    dir_.removeOld();
    step(ApplyStep::Cleaned);
    dir_.removeDir();
  }

 private:
  size_t size() const { return p_.changes.size(); }

  void step(ApplyStep s, size_t n = 0) {
    reached(s);
    if (o_.onStep) o_.onStep(s, n);
  }

  // "" when file i still holds what was scanned, else why not.
  std::string changedSince(size_t i) const {
    const std::string& file = p_.changes[i].file;
    struct stat st;
    if (::stat(targets_[i].path.c_str(), &st) != 0)
      return file + (errno == ENOENT ? ": deleted while the rewrite was writing"
                                     : ": cannot stat: " + std::string(std::strerror(errno)));
    // Read as a file, a directory has no bytes at all: say what it is instead.
    if (!S_ISREG(st.st_mode))
      return file + ": became " + kindOf(st.st_mode) + " while the rewrite was writing";
    std::optional<std::string> digest = support::fileDigest(targets_[i].path);
    if (!digest) return file + ": cannot read";
    if (*digest != journal_.entries[i].oldDigest)
      return file + ": changed while the rewrite was writing; scan again";
    return "";
  }

  // Runs a write that comes before any rename; a failure abandons the apply. `file`: the file
  // the write is for, named first.
  template <typename F>
  void guard(F&& write, const std::string& file = "") {
    try {
      write();
    } catch (const support::WriteError& e) {
      abandon({(file.empty() ? "" : file + ": ") + e.what()});
    } catch (const WriteRefused& e) {
      abandon(e.problems);
    }
  }

  void removeTemps(size_t from) {
    for (size_t i = from; i < temps_; ++i) ::unlink(dir_.tempOf(journal_, i).c_str());
  }

  void syncDirectories() {
    std::set<std::string> dirs;
    for (const auto& t : targets_) dirs.insert(support::dirOf(t.path));
    for (const auto& d : dirs) support::syncDirectory(d);
  }

  // Removes the journal and what it kept; `problems` get one line more on failure.
  void removeJournal(std::vector<std::string>& problems) {
    try {
      dir_.commit();
      dir_.removeOld();
      dir_.removeDir();
    } catch (const std::exception& e) {
      problems.push_back(e.what());
    }
  }

  // Nothing was renamed yet: remove what was made, and refuse.
  [[noreturn]] void abandon(std::vector<std::string> problems) {
    removeTemps(0);
    problems.back() += "; nothing was changed";
    removeJournal(problems);
    throw WriteRefused(std::move(problems));
  }

  // Puts back the files renamed so far (those that still hold what gridlock wrote), removes the
  // temporaries not renamed, and refuses.
  [[noreturn]] void rollBack(std::vector<std::string> problems) {
    size_t first = problems.size();
    for (size_t i = renamed_; i-- > 0;) {
      std::optional<std::string> digest = support::fileDigest(targets_[i].path);
      if (digest != journal_.entries[i].newDigest) {
        problems.push_back(p_.changes[i].file +
                           ": changed again after gridlock replaced it; left as it is");
        continue;
      }
      try {
        dir_.restore(journal_, i);
      } catch (const std::exception& e) {
        problems.push_back(e.what());
      }
    }
    removeTemps(renamed_);
    if (problems.size() > first) {
      problems.push_back(journalMessage(dir_.root(), JournalState::Interrupted));
      throw WriteRefused(std::move(problems));
    }
    try {
      syncDirectories();
    } catch (const support::WriteError& e) {
      problems.push_back(e.what());
    }
    problems.back() +=
        renamed_ ? "; every file replaced was put back as it was" : "; nothing was changed";
    removeJournal(problems);
    throw WriteRefused(std::move(problems));
  }

  const Prepared& p_;
  const std::vector<Target>& targets_;
  JournalDir dir_;
  const WriteOptions& o_;
  Journal journal_;
  size_t temps_ = 0, renamed_ = 0;
};

}  // namespace

void writeAll(const Prepared& p, const std::string& root, const WriteOptions& o) {
  if (p.changes.empty()) return;
  std::vector<Target> targets;
  std::vector<std::string> problems = preflight(p, root, o.force, targets);
  if (!problems.empty()) {
    problems.back() += "; nothing was changed";
    throw WriteRefused(std::move(problems));
  }
  Apply(p, targets, JournalDir::create(root), o).run();
}

}  // namespace gridlock::apply
