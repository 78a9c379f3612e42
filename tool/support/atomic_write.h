// Writing a file so that nothing is lost: readers see the old contents or the new, never a
// part; a failure (a full disk, a device that refuses) leaves the old file and no temporary
// behind; the replaced file keeps its mode, owner and group. See docs/guarantees.md.
#pragma once

#include <sys/types.h>

#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gridlock::support {

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a replacement keeps of the file it replaces.
struct FileMeta {
  mode_t mode = 0;  // permission bits (07777)
  uid_t uid = 0;
  gid_t gid = 0;
};

// The crash points of writeFileAtomic (support/crash_point.h), in the order they are reached:
// the new contents written and synced but not visible yet; linked under the temporary name
// (only when a file is replaced); renamed over the target.
inline constexpr std::array<std::string_view, 3> kOutputSteps = {"output-written", "output-linked",
                                                                 "output-renamed"};

// The file a path finally names: symlinks followed (relative targets against the link's
// directory), the last one possibly not existing yet. Throws WriteError on a symlink loop.
std::string followLinks(const std::string& path);

// Writes `contents` to `path`. A symlink is written through (its target is replaced, the link
// stays). A path that exists and is not a regular file (a FIFO, a device, /dev/stdout) is
// written directly: renaming over it would replace the device with a file. Otherwise the
// contents go to an unnamed file in the target's directory (O_TMPFILE; a named temporary
// "<target>.gridlock-tmp.<pid>" where the file system has none), synced, given the replaced
// file's mode, owner and group, then linked and renamed over the target; the directory is
// synced. The temporary is removed on every failure; one left by a killed process (only
// between the link and the rename, or all along without O_TMPFILE) is removed by the next
// write of the same target. Throws WriteError naming the path and the reason, also when the
// owner or group cannot be kept (a file of another user): nothing is written then.
void writeFileAtomic(const std::string& path, std::string_view contents);
// The same, calling `beforeRename(temporary)` once the new contents are complete and synced,
// just before they become visible at the target (for a new file the temporary's name is the
// target's; it does not exist yet): where the cache's tests put crash points and barriers.
void writeFileAtomic(const std::string& path, std::string_view contents,
                     const std::function<void(const std::string&)>& beforeRename);

// The temporary file's name for `target` written by process `pid`
// ("<target>.gridlock-tmp.<pid>"), so a crash leaves a name that says whose it is.
std::string tempPathFor(const std::string& target);
std::string tempPathFor(const std::string& target, long pid);

// The mode, owner and group of `path` (symlinks followed); throws WriteError.
FileMeta metaOf(const std::string& path);

// Creates `path`, which must not exist, holding `contents`, with `keep`'s mode, owner and group
// when given, synced to disk. Removes it again on any failure and throws WriteError naming
// `path`.
void writeNewFile(const std::string& path, std::string_view contents, const FileMeta* keep);

// Makes the entries of `dir` durable (renames, links, unlinks); throws WriteError.
void syncDirectory(const std::string& dir);

// The directory part of `path` ("." when there is none).
std::string dirOf(const std::string& path);

// Why writeFileAtomic could not write `path`, checked before the work that makes its contents
// (a scan): "is a directory", "the directory D does not exist", "D is not a directory", "cannot
// write in D"; "" when nothing stands in the way. A full disk still shows only when writing.
std::string whyUnwritable(const std::string& path);

}  // namespace gridlock::support
