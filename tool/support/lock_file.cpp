#include "support/lock_file.h"

#include "support/atomic_write.h"
#include "support/file_io.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <thread>

namespace gridlock::support {
namespace {

[[noreturn]] void fail(const std::string& lock, const std::string& why) {
  throw WriteError(lock + ": " + why);
}

// Whether `fd` is still the file at `path`: a holder removes the lock file before it releases
// it, so a process that waited on the removed file must open the new one.
bool stillNamed(int fd, const std::string& path) {
  struct stat held, named;
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

// Who holds the lock, as its file says: " (pid N)", or "".
std::string holder(const std::string& lock) {
  std::string pid = readFile(lock).value_or("");
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) return "";
  return " (pid " + pid + ")";
}

}  // namespace

LockFile::LockFile(const std::string& path, std::chrono::milliseconds patience)
    : lock_(followLinks(path) + ".lock") {
  auto until = std::chrono::steady_clock::now() + patience;
  bool said = false;
  while (true) {
    fd_ = ::open(lock_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd_ < 0) fail(lock_, std::string("cannot create the lock: ") + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
      if (stillNamed(fd_, lock_)) break;
    } else if (errno != EWOULDBLOCK && errno != EINTR) {
      int err = errno;
      ::close(fd_);
      fail(lock_, std::string("cannot lock: ") + std::strerror(err));
    } else if (std::chrono::steady_clock::now() >= until) {
      ::close(fd_);
      fail(lock_, "still held by another gridlock" + holder(lock_) + " after " +
                      std::to_string(patience.count() / 1000) +
                      " s; if that process is stopped or hung, end it (a lock of a process that "
                      "died is released by itself)");
    } else if (!said) {
      said = true;
      std::cerr << "gridlock: waiting for " << lock_ << ": another gridlock" << holder(lock_)
                << " is writing " << path << "\n";
    }
    ::close(fd_);
    fd_ = -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // Only the waiting message reads it.
  }
}

LockFile::~LockFile() {
  if (fd_ < 0) return;
  ::unlink(lock_.c_str());
  ::close(fd_);
}

}  // namespace gridlock::support
