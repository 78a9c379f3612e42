// Records what one parse depends on (deps.h) by standing between the compiler and its file
// system: every look-up, open, read and directory listing passes through it.
#pragma once

#include "cache/deps.h"

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <chrono>
#include <memory>

namespace gridlock::cache {

class Recorder {
 public:
  // Create it before the parse starts: a file modified after that moment (or shortly before:
  // mtime granularity) is recorded as racy.
  Recorder();
  ~Recorder();

  // The file system the parse should use: `base`, recorded. One per parse.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> wrap(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base);

  // What the parse depended on; stats the directories of the paths it did not find.
  Deps finish();

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// The stamp of `path`, whose status is `s`: what vfs::Status gives, and the ctime, which it
// does not, from stat(2) when that names the same file (an in-memory file has none).
Stamp stampOf(const llvm::vfs::Status& s, const std::string& path);

// isRacy() (stamp_table.h): whether a stamp is too recent to trust.

// MD5 of the sorted names and kinds of a listing.
std::string listingDigest(std::vector<llvm::vfs::directory_entry> entries);

}  // namespace gridlock::cache
