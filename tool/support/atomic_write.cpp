#include "support/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace gridlock::support {
namespace {

std::string dirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw WriteError(path + ": " + what + ": " + std::strerror(err));
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

void writeDirectly(const std::string& path, std::string_view contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open", errno);
  bool ok = writeAll(fd, contents);
  int err = errno;
  ::close(fd);
  if (!ok) fail(path, "cannot write", err);
}

}  // namespace

std::string followLinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char buf[PATH_MAX];
    ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
    if (n < 0) return p;
    std::string target(buf, static_cast<size_t>(n));
    p = target[0] == '/' ? target : dirOf(p) + "/" + target;
  }
  return p;
}

std::string tempPathFor(const std::string& target) {
  return target + ".gridlock-tmp." + std::to_string(::getpid());
}

void writeFileAtomic(const std::string& path, std::string_view contents) {
  writeFileAtomic(path, contents, nullptr);
}

void writeFileAtomic(const std::string& path, std::string_view contents,
                     const std::function<void(const std::string&)>& beforeRename) {
  const std::string target = followLinks(path);
  struct stat old;
  bool exists = ::stat(target.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode)) return writeDirectly(target, contents);

  const std::string tmp = tempPathFor(target);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, "cannot create a temporary file beside it", errno);
  auto abandon = [&](const char* what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, what, err);
  };
  if (!writeAll(fd, contents)) abandon("cannot write", errno);
  if (exists) {
    if (::fchmod(fd, old.st_mode & 07777) != 0) abandon("cannot keep its mode", errno);
    // Only root may give a file away; keeping the group may still work for others.
    if (::fchown(fd, old.st_uid, old.st_gid) != 0 && errno != EPERM)
      abandon("cannot keep its owner", errno);
  }
  if (::fsync(fd) != 0) abandon("cannot sync", errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "cannot write", err);
  }
  if (beforeRename) beforeRename(tmp);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "cannot replace", err);
  }
  // The rename is durable once the directory is synced.
  int dir = ::open(dirOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace gridlock::support
