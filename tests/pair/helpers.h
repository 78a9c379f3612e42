// Shared by the pair tests: temporary directories and crafted result files.
#pragma once

#include "pair/results.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace gridlock::pair::testing {

namespace fs = std::filesystem;

// tests/pair/data, baked in by CMake.
inline std::string dataDir() { return PAIR_TEST_DATA_DIR; }

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "pair-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return (fs::path(path_) / rel).string(); }

 private:
  std::string path_;
};

inline void writeFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "Suite.Name" as a TestId, split at the first '.' (GoogleTest suites hold no '.').
inline TestId tid(const std::string& dotted) {
  size_t dot = dotted.find('.');
  if (dot == std::string::npos) return {"", dotted};
  return {dotted.substr(0, dot), dotted.substr(dot + 1)};
}

// One test for gtestJson: id "Suite.Name", outcome "pass" | "fail" | "skip", failure message.
struct T {
  std::string id, outcome, message;
};

// A minimal GoogleTest JSON report with the fields GoogleTest writes for each test.
inline std::string gtestJson(const std::vector<T>& tests) {
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') q += '\\';
      if (c == '\n') {
        q += "\\n";
        continue;
      }
      q += c;
    }
    return q + "\"";
  };
  std::string out = "{\"testsuites\": [";
  for (size_t i = 0; i < tests.size(); ++i) {
    const T& t = tests[i];
    std::string suite = t.id.substr(0, t.id.find('.')), name = t.id.substr(t.id.find('.') + 1);
    out += std::string(i ? ", " : "") + "{\"name\": " + quote(suite) +
           ", \"testsuite\": [{\"name\": " + quote(name) + ", \"status\": \"RUN\", \"result\": " +
           (t.outcome == "skip" ? "\"SKIPPED\"" : "\"COMPLETED\"");
    if (t.outcome == "fail")
      out += ", \"failures\": [{\"failure\": " + quote(t.message) + ", \"type\": \"\"}]";
    out += "}]}";
  }
  return out + "]}\n";
}

}  // namespace gridlock::pair::testing
