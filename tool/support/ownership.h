// Whether gridlock may act on a file or directory it found by itself rather than one the user
// named: a `.gridlock.json` found upward from the working directory, a `.gridlock-journal`.
// Anyone can create those in a shared directory (/tmp) or an ancestor of another user's tree,
// so, as git refuses a repository another user owns (safe.directory), one owned by someone
// else is ignored with a warning unless the user opts in: GRIDLOCK_SAFE_DIRECTORIES lists the
// directories whose files are trusted whoever owns them (docs/configuration.md).
#pragma once

#include <sys/types.h>

#include <string>

namespace gridlock::support {

inline constexpr const char* kSafeDirectoriesVariable = "GRIDLOCK_SAFE_DIRECTORIES";

// Whether `dir` is listed in GRIDLOCK_SAFE_DIRECTORIES: a colon-separated list of
// directories (compared as real paths), or `*` for every directory.
bool optedIn(const std::string& dir);

// Who may own what gridlock finds by itself: the user alone (a journal, which only the user's
// own gridlock writes), or the user or root (a configuration root installed).
enum class TrustedOwners { User, UserOrRoot };

// "" when a file of `owner` in `dir` may be acted on; otherwise why not, for a warning:
// "owned by uid 65534, not by you (uid 1000)", with the way to opt in.
std::string distrust(uid_t owner, const std::string& dir, TrustedOwners who);

// The same for the file at `path` (in `dir`), by the owner of each thing the path reaches: a
// symbolic link by its own owner (lstat) and by its target's (stat), so that neither a link
// another user planted to a file of yours, nor your link to a file of theirs, is trusted by
// following it alone. "" when both may be acted on (or nothing is there); otherwise why not:
// "a link owned by uid 65534, ..." or "a link to T, which is owned by uid 65534, ...".
std::string distrustPath(const std::string& path, const std::string& dir, TrustedOwners who);

// Prints `gridlock: warning: LINE` on stderr, once per process for each line.
void warnOnce(const std::string& line);

}  // namespace gridlock::support
