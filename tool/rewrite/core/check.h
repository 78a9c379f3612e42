// What a backend says after its plan is verified and before anything is written.
#pragma once

#include <string>
#include <vector>

namespace gridlock::rewrite {

// A backend's last word on a verified plan (C++: the callers outside every compile database).
struct Confirmation {
  std::vector<std::string> lines;  // for stderr, as the backend words them
  bool refused = false;
};

}  // namespace gridlock::rewrite
