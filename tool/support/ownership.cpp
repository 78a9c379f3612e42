#include "support/ownership.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>

namespace gridlock::support {
namespace {

std::string real(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

}  // namespace

bool optedIn(const std::string& dir) {
  const char* listed = std::getenv(kSafeDirectoriesVariable);
  if (!listed || !*listed) return false;
  std::string list = listed, want = real(dir);
  for (size_t start = 0; start <= list.size();) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    std::string entry = list.substr(start, end - start);
    if (entry == "*" || (!entry.empty() && real(entry) == want)) return true;
    start = end + 1;
  }
  return false;
}

std::string distrust(uid_t owner, const std::string& dir, TrustedOwners who) {
  uid_t me = ::geteuid();
  if (owner == me || (who == TrustedOwners::UserOrRoot && owner == 0) || optedIn(dir)) return "";
  return "owned by uid " + std::to_string(owner) + ", not by you (uid " + std::to_string(me) +
         (who == TrustedOwners::UserOrRoot ? ") nor root" : ")") + "; to trust it, set " +
         kSafeDirectoriesVariable + "=" + real(dir);
}

std::string distrustPath(const std::string& path, const std::string& dir, TrustedOwners who) {
  struct stat link, target;
  if (::lstat(path.c_str(), &link) != 0) return "";
  if (!S_ISLNK(link.st_mode)) return distrust(link.st_uid, dir, who);
  if (std::string why = distrust(link.st_uid, dir, who); !why.empty()) return "a link " + why;
  if (::stat(path.c_str(), &target) != 0) return "";
  if (std::string why = distrust(target.st_uid, dir, who); !why.empty())
    return "a link to " + real(path) + ", which is " + why;
  return "";
}

void warnOnce(const std::string& line) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(line).second) std::cerr << "gridlock: warning: " << line << "\n";
}

}  // namespace gridlock::support
