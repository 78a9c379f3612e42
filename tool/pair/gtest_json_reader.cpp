#include "pair/gtest_json_reader.h"

#include <nlohmann/json.hpp>

namespace gridlock::pair {
namespace {

using nlohmann::json;

[[noreturn]] void malformed(const ResultFile& file, const std::string& what) {
  throw InputError(file.path + ": not a GoogleTest JSON report: " + what);
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Observation readTest(const ResultFile& file, const std::string& suite, const json& t) {
  if (!t.is_object() || !t.contains("name")) malformed(file, "test without a name in " + suite);
  Observation o;
  o.id = {suite, str(t, "name")};
  // status RUN/NOTRUN (NOTRUN: DISABLED_ tests); result COMPLETED/SKIPPED/SUPPRESSED.
  std::string status = str(t, "status"), result = str(t, "result");
  auto failures = t.find("failures");
  if (failures != t.end() && failures->is_array() && !failures->empty()) {
    o.outcome = Outcome::Fail;
    o.message = str(failures->front(), "failure");
  } else if (status == "NOTRUN" || result == "SKIPPED" || result == "SUPPRESSED") {
    o.outcome = Outcome::Skip;
  } else {
    o.outcome = Outcome::Pass;
  }
  return o;
}

}  // namespace

void readGTestJson(const std::string& text, ResultFile& file) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // An error at the very end means the text stopped early: a crash while writing, not a
    // malformed file. Whitespace-only counts as empty.
    if (e.byte >= text.size() || text.find_first_not_of(" \t\r\n") == std::string::npos) {
      file.truncated = true;
      file.problem = "truncated JSON (" + std::to_string(text.size()) + " bytes)";
      return;
    }
    throw InputError(file.path + ": malformed JSON at byte " + std::to_string(e.byte) + ": " +
                     e.what());
  }
  auto suites = doc.find("testsuites");
  if (!doc.is_object() || suites == doc.end() || !suites->is_array())
    malformed(file, "no \"testsuites\" array");
  for (const json& s : *suites) {
    std::string suite = s.is_object() ? str(s, "name") : std::string();
    auto tests = s.is_object() ? s.find("testsuite") : s.end();
    if (suite.empty() || tests == s.end() || !tests->is_array())
      malformed(file, "a test suite without \"name\" or \"testsuite\"");
    for (const json& t : *tests) file.tests.push_back(readTest(file, suite, t));
  }
}

}  // namespace gridlock::pair
