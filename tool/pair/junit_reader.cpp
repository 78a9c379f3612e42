#include "pair/junit_reader.h"

#include <pugixml.hpp>

#include <array>
#include <sstream>
#include <string_view>

namespace gridlock::pair {
namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// ctest's JUnit has no crash status (a segfault reads `<failure message=""/>`), so the captured
// output is searched for what a dying process or mpirun prints.
constexpr std::array<std::string_view, 14> kCrashMarkers = {
    "SEGFAULT",    "Segmentation fault",
    "SIGSEGV",     "SIGABRT",
    "SIGBUS",      "Child aborted",
    "Aborted",     "Timeout",
    "timed out",   "exited on signal",
    "MPI_ABORT",   "terminate called",
    "BAD_COMMAND", "Unable to find executable"};

// GoogleTest output where a test started but never reported an end: the binary died in it.
std::string unfinishedGTest(const std::string& out) {
  std::istringstream in(out);
  std::string line, running;
  while (std::getline(in, line)) {
    if (line.rfind("[ RUN      ] ", 0) == 0)
      running = trim(line.substr(13));
    else if (line.rfind("[       OK ]", 0) == 0 || line.rfind("[  FAILED  ]", 0) == 0 ||
             line.rfind("[  SKIPPED ]", 0) == 0)
      running.clear();
  }
  return running.empty() ? std::string() : "died while running " + running;
}

// GoogleTest's printed failure ("file:line: Failure" and the lines after it), for writers that
// only capture output.
std::string gtestFailureFromOutput(const std::string& out) {
  std::istringstream in(out);
  std::string line, msg;
  bool inFailure = false;
  while (std::getline(in, line)) {
    if (!inFailure && line.find(": Failure") != std::string::npos) {
      inFailure = true;
      msg = line;
    } else if (inFailure) {
      if (line.rfind("[", 0) == 0) break;
      msg += "\n" + line;
    }
  }
  return trim(msg);
}

std::string lastLine(const std::string& text) {
  std::string t = trim(text);
  size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : trim(t.substr(nl + 1));
}

// GoogleTest XML writes classname = suite; ctest writes classname = name = "Suite.Name" (the
// test's ctest name). Without a separate class the name splits at its first '.', as GoogleTest
// suites hold no '.', so both writers' records of one GoogleTest test line up.
TestId testId(const pugi::xml_node& tc) {
  std::string name = tc.attribute("name").as_string(), cls = tc.attribute("classname").as_string();
  if (!cls.empty() && name.rfind(cls + ".", 0) == 0) return {cls, name.substr(cls.size() + 1)};
  if (!cls.empty() && cls != name) return {cls, name};
  size_t dot = name.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return {"", name};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

Observation readTestCase(const pugi::xml_node& tc) {
  Observation o;
  o.id = testId(tc);
  std::string status = tc.attribute("status").as_string();
  std::string result = tc.attribute("result").as_string();
  std::string out = tc.child_value("system-out");
  out += tc.child_value("system-err");
  pugi::xml_node error = tc.child("error"), failure = tc.child("failure"),
                 skipped = tc.child("skipped");
  if (error) {
    o.outcome = Outcome::Crash;
    o.message = trim(error.attribute("message").as_string());
    if (o.message.empty()) o.message = trim(error.text().as_string());
    if (o.message.empty()) o.message = "error";
  } else if (failure || status == "fail") {
    std::string text = trim(failure.attribute("message").as_string());
    if (text.empty()) text = trim(failure.text().as_string());
    std::string evidence = crashEvidence(text + "\n" + failure.attribute("type").as_string());
    if (evidence.empty()) evidence = crashEvidence(out);
    if (!evidence.empty()) {
      o.outcome = Outcome::Crash;
      o.message = evidence;
    } else {
      o.outcome = Outcome::Fail;
      o.message = !text.empty() ? text : gtestFailureFromOutput(out);
      if (o.message.empty()) o.message = lastLine(out);
      if (o.message.empty()) o.message = "failed (no message)";
    }
  } else if (skipped || status == "notrun" || status == "disabled" || result == "skipped" ||
             result == "suppressed") {
    std::string why = trim(skipped.attribute("message").as_string());
    // ctest reports a test binary that was never built as "not run": that is a broken tree.
    if (why.find("Unable to find executable") != std::string::npos) {
      o.outcome = Outcome::Crash;
      o.message = why;
    } else {
      o.outcome = Outcome::Skip;
      o.message = why;
    }
  } else {
    o.outcome = Outcome::Pass;
  }
  return o;
}

void collect(const pugi::xml_node& node, ResultFile& file) {
  for (pugi::xml_node child : node.children()) {
    std::string_view n = child.name();
    if (n == "testcase")
      file.tests.push_back(readTestCase(child));
    else if (n == "testsuite" || n == "testsuites")
      collect(child, file);
  }
}

}  // namespace

std::string crashEvidence(const std::string& text) {
  if (std::string unfinished = unfinishedGTest(text); !unfinished.empty()) return unfinished;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    for (std::string_view marker : kCrashMarkers)
      if (line.find(marker) != std::string::npos) return trim(line);
  return {};
}

void readJUnitXml(const std::string& text, ResultFile& file) {
  pugi::xml_document doc;
  pugi::xml_parse_result r = doc.load_buffer(text.data(), text.size());
  if (!r) {
    // An error at the last character or beyond: the writer stopped early.
    size_t end = text.find_last_not_of(" \t\r\n");
    if (end == std::string::npos || static_cast<size_t>(r.offset) >= end) {
      file.truncated = true;
      file.problem = "truncated XML (" + std::to_string(text.size()) + " bytes)";
      return;
    }
    throw InputError(file.path + ": malformed XML at byte " + std::to_string(r.offset) + ": " +
                     r.description());
  }
  std::string_view root = doc.document_element().name();
  if (root != "testsuites" && root != "testsuite")
    throw InputError(file.path + ": not a JUnit XML report: root element <" + std::string(root) +
                     ">");
  collect(doc, file);
}

}  // namespace gridlock::pair
