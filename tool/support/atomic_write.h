// Writing a file so that nothing is lost: readers see the old contents or the new, never a
// part, and a failure (a full disk, a kill before the rename) leaves the old file and no
// temporary behind.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gridlock::support {

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The file a path finally names: symlinks followed (relative targets against the link's
// directory), the last one possibly not existing yet.
std::string followLinks(const std::string& path);

// Writes `contents` to `path`: a temporary beside the target, written, synced, then renamed
// over it. A symlink is written through (its target is replaced, the link stays). A path that
// exists and is not a regular file (a FIFO, a device, /dev/stdout) is written directly:
// renaming over it would replace the device with a file. The replaced file's mode, owner and
// group are kept. The temporary is removed on every failure. Throws WriteError naming the
// path and the reason.
void writeFileAtomic(const std::string& path, std::string_view contents);
// The same, calling `beforeRename(temporary)` once the temporary is complete and synced, just
// before it replaces the target: where tests put crash points and barriers.
void writeFileAtomic(const std::string& path, std::string_view contents,
                     const std::function<void(const std::string&)>& beforeRename);

// The temporary file's name for `target` in this process ("<target>.gridlock-tmp.<pid>"), so
// a crash leaves a name that says whose it is.
std::string tempPathFor(const std::string& target);

}  // namespace gridlock::support
