#include "cache/store.h"

#include "support/atomic_write.h"
#include "support/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace gridlock::cache {
namespace {

namespace fs = std::filesystem;

// Test hooks, from the environment: a crash point and a barrier between writing an entry's
// temporary and renaming it into place (tests/cache/concurrency_test.cpp).
void beforeRename(const std::string& tmp) {
  if (std::getenv("GRIDLOCK_TEST_CACHE_CRASH_BEFORE_RENAME")) ::_exit(86);
  if (const char* fifo = std::getenv("GRIDLOCK_TEST_CACHE_BARRIER")) {
    // Once per process: say where we are, then wait until the test lets us go on.
    static bool done = false;
    if (done) return;
    done = true;
    support::writeFileAtomic(std::string(fifo) + ".at", tmp);
    int fd = ::open(fifo, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      char c;
      while (::read(fd, &c, 1) < 0 && errno == EINTR) {
      }
      ::close(fd);
    }
  }
}

// A .gitignore of `*` in the cache directory, as ruff and pytest leave in theirs, so that a cache
// in a checkout (a Python project's, at its root) is never committed. Only where the directory
// holds gridlock's files alone: a --cache-dir that names a directory of other files keeps them
// visible to git. An existing .gitignore is the user's.
void ignoreInGit(const std::string& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name != "CACHEDIR.TAG" && name != "entries" && name != "blobs") return;
  }
  if (ec) return;
  try {
    support::writeFileAtomic(
        dir + "/.gitignore",
        "# Made by gridlock: its facts cache is not for version control.\n*\n");
  } catch (const std::exception&) {
    // A courtesy too.
  }
}

}  // namespace

Store::Store(std::string dir, std::uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {
  std::error_code ec;
  fs::create_directories(fs::path(dir_) / "entries", ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create the cache directory: " + ec.message());
  std::string tag = dir_ + "/CACHEDIR.TAG";
  if (!fs::exists(tag, ec)) {
    try {
      support::writeFileAtomic(
          tag,
          "Signature: 8a477f597d28d172789f06886806bc55\n"
          "# This file marks a cache directory of gridlock (the facts cache).\n");
    } catch (const std::exception&) {
      // Only a courtesy to backup tools.
    }
  }
  ignoreInGit(dir_);
}

std::string Store::pathOf(const std::string& slot) const {
  return dir_ + "/entries/" + slot.substr(0, 2) + "/" + slot;
}

std::optional<std::string> Store::read(const std::string& slot) const {
  return support::readFile(pathOf(slot));
}

std::optional<support::MappedFile> Store::map(const std::string& slot) const {
  return support::MappedFile::open(pathOf(slot));
}

void Store::write(const std::string& slot, const std::string& bytes) const {
  std::string path = pathOf(slot);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  bool hooks = std::getenv("GRIDLOCK_TEST_CACHE_CRASH_BEFORE_RENAME") ||
               std::getenv("GRIDLOCK_TEST_CACHE_BARRIER");
  if (hooks)
    support::writeFileAtomic(path, bytes, beforeRename);
  else
    support::writeFileAtomic(path, bytes);
}

void Store::touch(const std::string& slot) const {
  // Now, for both times; a failure only makes the entry look older.
  ::utimensat(AT_FDCWD, pathOf(slot).c_str(), nullptr, 0);
}

std::string Store::blobPathOf(const std::string& digest) const {
  return dir_ + "/blobs/" + digest.substr(0, 2) + "/" + digest;
}

std::optional<std::string> Store::readBlob(const std::string& digest) const {
  return support::readFile(blobPathOf(digest));
}

bool Store::hasBlob(const std::string& digest) const {
  struct stat st;
  return ::stat(blobPathOf(digest).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void Store::writeBlob(const std::string& digest, const std::string& bytes) const {
  std::string path = blobPathOf(digest);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  support::writeFileAtomic(path, bytes);
}

}  // namespace gridlock::cache
