#include "support/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

namespace gridlock::support {

namespace {

// A regular file in one read of its size (a warm Python scan reads a 4 MB cache entry: through
// a stream, growing a string, that cost a tenth of the run); nothing when it is not a regular
// file, which the stream reads below.
std::optional<std::string> readRegular(const std::string& path, bool& regular) {
  regular = false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::string out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    regular = true;
    out.resize(static_cast<size_t>(st.st_size));
    size_t have = 0;
    for (;;) {
      if (have == out.size()) out.resize(out.size() + 4096);  // it grew since fstat, or EOF
      ssize_t n = ::read(fd, out.data() + have, out.size() - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::close(fd);
        return std::nullopt;
      }
      if (n == 0) break;
      have += static_cast<size_t>(n);
    }
    out.resize(have);
  }
  ::close(fd);
  return regular ? std::optional<std::string>(std::move(out)) : std::nullopt;
}

}  // namespace

std::optional<std::string> readFile(const std::string& path) {
  bool regular = false;
  std::optional<std::string> whole = readRegular(path, regular);
  if (regular) return whole;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(ss).str();
}

std::optional<std::string> fileDigest(const std::string& path) {
  std::optional<std::string> text = readFile(path);
  if (!text) return std::nullopt;
  return md5Hex(*text);
}

}  // namespace gridlock::support
