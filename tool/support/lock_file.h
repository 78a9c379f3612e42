// A lock beside a file that several gridlock processes may rewrite at once (the gate's
// baseline), as git's index.lock: FILE.lock, flock()ed while one process re-reads FILE, decides
// and writes it, so that no process writes what it decided from a copy another has replaced.
//
// The lock is the flock, not the file's existence: the kernel releases it when its holder dies,
// so a FILE.lock a killed process left is simply taken by the next one (never a stale lock to
// remove by hand). Its holder writes its pid into it, for the message of a process that waits.
#pragma once

#include <chrono>
#include <string>

namespace gridlock::support {

class LockFile {
 public:
  // Takes PATH.lock (beside the file PATH names, its symlinks followed), waiting while another
  // process holds it: a line on stderr says once whom it waits for. Throws WriteError naming the
  // lock when it cannot be created, or is still held after `patience` (a holder that hangs or
  // was stopped).
  explicit LockFile(const std::string& path,
                    std::chrono::milliseconds patience = std::chrono::seconds(60));
  ~LockFile();  // removes PATH.lock, then releases it
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

  const std::string& path() const { return lock_; }

 private:
  std::string lock_;
  int fd_ = -1;
};

}  // namespace gridlock::support
