// What `gridlock rewrite` puts where a global fallback used to be, once every caller in the
// codebase passes the group explicitly: a loud failure that names the missing argument, typed
// as the read it replaces so it fits any expression (`pg ? pg : require_group<T>("...")`).
#pragma once

#include <stdexcept>

namespace gridlock {

// Thrown when code reaches a place that used to fall back to a process-wide group.
class MissingGroupError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

template <class T>
[[noreturn]] T require_group(const char* message) {
  throw MissingGroupError(message);
}

}  // namespace gridlock
