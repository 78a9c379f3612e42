#include "support/atomic_write.h"

#include "support/crash_point.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

namespace gridlock::support {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw WriteError(path + ": " + what + ": " + std::strerror(err));
}

std::string baseOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Writes all of `contents` to `fd`; false with errno set on failure.
bool writeAll(int fd, std::string_view contents) {
  const char* p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// Gives the open file `keep`'s owner, group and mode (in that order: a change of owner clears
// the set-id bits). False with errno set when that is not allowed.
bool keepMeta(int fd, const FileMeta& keep) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return false;
  if ((st.st_uid != keep.uid || st.st_gid != keep.gid) && ::fchown(fd, keep.uid, keep.gid) != 0)
    return false;
  return ::fchmod(fd, keep.mode & 07777) == 0;
}

// Fills the open file: contents, metadata, fsync. Returns the step that failed, or null.
const char* fill(int fd, std::string_view contents, const FileMeta* keep) {
  if (!writeAll(fd, contents)) return "cannot write";
  if (keep && !keepMeta(fd, *keep)) return "cannot keep its mode, owner and group";
  if (::fsync(fd) != 0) return "cannot sync";
  return nullptr;
}

void writeDirectly(const std::string& path, std::string_view contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open", errno);
  bool ok = writeAll(fd, contents);
  int err = errno;
  ::close(fd);
  if (!ok) fail(path, "cannot write", err);
}

// Removes "<target>.gridlock-tmp.<pid>" files of processes that no longer run: what a kill
// between linking and renaming (or during a write without O_TMPFILE) left.
void removeStaleTemps(const std::string& target) {
  const std::string prefix = baseOf(target) + ".gridlock-tmp.";
  const std::string dir = dirOf(target);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0 || name.size() == prefix.size()) continue;
    std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    pid_t pid = static_cast<pid_t>(std::stol(digits));
    if (pid == ::getpid() || (::kill(pid, 0) != 0 && errno == ESRCH))
      ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

// Links the unnamed file `fd` at `path`; false with errno set.
bool linkUnnamed(int fd, const std::string& path) {
  if (::linkat(fd, "", AT_FDCWD, path.c_str(), AT_EMPTY_PATH) == 0) return true;
  // AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc does the same for anyone.
  std::string proc = "/proc/self/fd/" + std::to_string(fd);
  return ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0;
}

// Renames `tmp` over `target` and syncs the directory; removes `tmp` on failure.
void replaceWith(const std::string& path, const std::string& tmp, const std::string& target) {
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "cannot replace", err);
  }
  crashPoint(kOutputSteps[2]);
  syncDirectory(dirOf(target));
}

// The new contents through a named temporary (file systems without O_TMPFILE).
void writeThroughNamedTemp(const std::string& path, const std::string& target,
                           std::string_view contents, const FileMeta* keep) {
  const std::string tmp = tempPathFor(target);
  ::unlink(tmp.c_str());  // a stale one of this pid: see removeStaleTemps
  try {
    writeNewFile(tmp, contents, keep);
  } catch (const WriteError& e) {
    throw WriteError(path + ": " + std::string(e.what()).substr(tmp.size() + 2));
  }
  crashPoint(kOutputSteps[0]);
  replaceWith(path, tmp, target);
}

}  // namespace

std::string dirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string whyUnwritable(const std::string& path) {
  std::string target;
  try {
    target = followLinks(path);
  } catch (const WriteError& e) {
    std::string why = e.what();  // "<path>: cannot follow its symlinks: ..."
    return why.substr(std::min(why.size(), path.size() + 2));
  }
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (!S_ISREG(st.st_mode)) return "";  // a FIFO or a device: written directly
  }
  std::string dir = dirOf(target);
  if (::stat(dir.c_str(), &st) != 0) return "the directory " + dir + " does not exist";
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return "cannot write in " + dir;
  return "";
}

std::string followLinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char buf[PATH_MAX];
    ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
    if (n <= 0) fail(path, "cannot read the symlink " + p, n < 0 ? errno : EINVAL);
    std::string target(buf, static_cast<size_t>(n));
    p = target[0] == '/' ? target : dirOf(p) + "/" + target;
  }
  fail(path, "cannot follow its symlinks", ELOOP);
}

std::string tempPathFor(const std::string& target) { return tempPathFor(target, ::getpid()); }

std::string tempPathFor(const std::string& target, long pid) {
  return target + ".gridlock-tmp." + std::to_string(pid);
}

FileMeta metaOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) fail(path, "cannot stat", errno);
  return {st.st_mode & 07777, st.st_uid, st.st_gid};
}

void writeNewFile(const std::string& path, std::string_view contents, const FileMeta* keep) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, "cannot create", errno);
  const char* failed = fill(fd, contents, keep);
  int err = errno;
  if (::close(fd) != 0 && !failed) {
    failed = "cannot write";
    err = errno;
  }
  if (failed) {
    ::unlink(path.c_str());
    fail(path, failed, err);
  }
}

void syncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(dir, "cannot open the directory", errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  // Some file systems cannot sync a directory; their renames are as durable as they get.
  if (rc != 0 && err != EINVAL && err != EROFS) fail(dir, "cannot sync the directory", err);
}

void writeFileAtomic(const std::string& path, std::string_view contents) {
  writeFileAtomic(path, contents, nullptr);
}

void writeFileAtomic(const std::string& path, std::string_view contents,
                     const std::function<void(const std::string&)>& beforeRename) {
  const std::string target = followLinks(path);
  struct stat old;
  bool exists = ::stat(target.c_str(), &old) == 0;
  if (!exists && errno != ENOENT) fail(path, "cannot stat", errno);
  if (exists && !S_ISREG(old.st_mode)) return writeDirectly(target, contents);
  FileMeta meta{old.st_mode & 07777, old.st_uid, old.st_gid};
  const FileMeta* keep = exists ? &meta : nullptr;
  removeStaleTemps(target);

  int fd = ::open(dirOf(target).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0) {
    if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)
      return writeThroughNamedTemp(path, target, contents, keep);
    fail(path, "cannot create a file beside it", errno);
  }
  // An unnamed file vanishes with its descriptor: a failure or a kill up to the link leaves
  // nothing behind.
  if (const char* failed = fill(fd, contents, keep)) {
    int err = errno;
    ::close(fd);
    fail(path, failed, err);
  }
  crashPoint(kOutputSteps[0]);
  const std::string tmp = exists ? tempPathFor(target) : target;
  if (beforeRename) beforeRename(tmp);  // complete and synced, not visible yet
  if (exists) ::unlink(tmp.c_str());    // a stale one of this pid
  if (!linkUnnamed(fd, tmp)) {
    int err = errno;
    ::close(fd);
    // Created meanwhile by someone else: replace it like any existing file.
    if (!exists && err == EEXIST) return writeFileAtomic(path, contents, beforeRename);
    if (err == ENOENT || err == EPERM || err == EOPNOTSUPP)  // no /proc, no linking here
      return writeThroughNamedTemp(path, target, contents, keep);
    fail(path, "cannot link the new contents", err);
  }
  ::close(fd);
  if (!exists) {
    crashPoint(kOutputSteps[2]);
    return syncDirectory(dirOf(target));
  }
  crashPoint(kOutputSteps[1]);
  replaceWith(path, tmp, target);
}

}  // namespace gridlock::support
