#include "pair/rerun_filter.h"

#include <unistd.h>
#include <string_view>

extern char** environ;

namespace gridlock::pair {

namespace {

std::string regexEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// Bytes our own environment already takes from the exec's total (argv + envp) limit.
size_t inheritedBytes() {
  size_t n = 0;
  for (char** e = environ; e && *e; ++e) n += std::string_view(*e).size() + 1 + sizeof(char*);
  return n;
}

}  // namespace

std::string filterFileText(const std::set<TestId>& tests) {
  std::string text;
  for (const TestId& id : tests) text += id.display() + "\n";
  return text;
}

Environment filterVariables(const std::set<TestId>& tests, size_t maxString) {
  if (tests.empty()) return {};
  std::string filter, regex;
  for (const TestId& id : tests) {
    filter += (filter.empty() ? "" : ":") + id.display();
    regex += (regex.empty() ? "" : "|") + regexEscape(id.display());
  }
  Environment env = {{"GRIDLOCK_TEST_FILTER", filter},
                     {"GTEST_FILTER", filter},
                     {"GRIDLOCK_TEST_REGEX", "^(" + regex + ")$"}};
  size_t total = inheritedBytes();
  for (auto& [name, value] : env) {
    size_t bytes = name.size() + 1 + value.size() + 1;
    if (bytes > maxString) return {};
    total += bytes;
  }
  // Half the total limit keeps room for the command line and whatever the shell adds.
  long argMax = sysconf(_SC_ARG_MAX);
  if (argMax > 0 && total > static_cast<size_t>(argMax) / 2) return {};
  return env;
}

}  // namespace gridlock::pair
