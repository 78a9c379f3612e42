// Whether a parse would see the same inputs as the one recorded in Deps: stamps first, the
// digest only where a stamp differs (as ccache's direct mode and ninja do), every path that
// was missing still missing, every listing unchanged.
#pragma once

#include "cache/deps.h"

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace gridlock::cache {

// One run's view of the file system the parses use, shared by all threads: each path is
// stat'ed, read or listed at most once per run.
class FileView {
 public:
  explicit FileView(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs);

  enum class Kind { Missing, File, Directory };
  struct Info {
    Kind kind = Kind::Missing;
    Stamp stamp;
  };
  Info info(const std::string& path);
  std::optional<std::string> digest(const std::string& path);  // MD5 of the contents
  std::optional<std::string> listing(const std::string& dir);  // listingDigest()
  std::chrono::system_clock::time_point start() const { return start_; }
  // Unique to this view in the process: what is decided from one view holds for it alone.
  std::uint64_t id() const { return id_; }

 private:
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs_;
  std::chrono::system_clock::time_point start_;
  std::uint64_t id_;
  std::mutex mutex_;
  std::map<std::string, Info> infos_;
  std::map<std::string, std::optional<std::string>> digests_, listings_;
};

struct CheckResult {
  bool fresh = false;
  std::string reason;    // why not: "header core/attention.h changed"
  bool restamp = false;  // fresh, but some stamps changed: `deps` holds the new ones
  Deps deps;
};

// `mainFile` is the TU's source (its change reads "source changed"); `display` turns an
// absolute path into the one messages show.
CheckResult check(const Deps& deps, FileView& view, const std::string& mainFile,
                  const std::function<std::string(const std::string&)>& display);

}  // namespace gridlock::cache
