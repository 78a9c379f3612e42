#include "support/crash_point.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace gridlock::support {
namespace {

// "NAME:N" from the environment variable `var` matches the N-th arrival at `name`.
bool matches(const char* var, std::string_view name, unsigned n) {
  const char* v = std::getenv(var);
  if (!v) return false;
  std::string_view spec(v);
  size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos) return spec == name && n == 1;
  return spec.substr(0, colon) == name && std::string(spec.substr(colon + 1)) == std::to_string(n);
}

// How many times `name` has been reached, this time included.
unsigned arrive(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, unsigned, std::less<>> arrivals;
  std::lock_guard<std::mutex> lock(mutex);
  return ++arrivals[std::string(name)];
}

}  // namespace

void crashPoint(std::string_view name) {
  static const bool active = std::getenv("GRIDLOCK_CRASH_AT") || std::getenv("GRIDLOCK_STOP_AT") ||
                             std::getenv("GRIDLOCK_TRACE_POINTS");
  if (!active) return;
  unsigned n = arrive(name);
  if (const char* trace = std::getenv("GRIDLOCK_TRACE_POINTS")) {
    int fd = ::open(trace, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      std::string line = std::string(name) + ":" + std::to_string(n) + "\n";
      (void)!::write(fd, line.data(), line.size());
      ::close(fd);
    }
  }
  // _exit: no destructor, no atexit handler, no buffer flush runs, as after kill -9.
  if (matches("GRIDLOCK_CRASH_AT", name, n)) ::_exit(137);
  if (matches("GRIDLOCK_STOP_AT", name, n)) ::raise(SIGSTOP);
}

void stopPoint(std::string_view name) {
  static const bool active = std::getenv("GRIDLOCK_STOP_AT");
  if (active && matches("GRIDLOCK_STOP_AT", name, arrive(name))) ::raise(SIGSTOP);
}

}  // namespace gridlock::support
