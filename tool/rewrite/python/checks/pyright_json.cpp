#include "rewrite/python/checks/pyright_json.h"

#include "support/confine.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace gridlock::rewrite::py::checks {
namespace {

using nlohmann::json;

// A 0-based position of pyright's `range.start` as 1-based line and column.
void readStart(const json& d, Diagnostic& out) {
  const json& start = d.at("range").at("start");
  out.line = start.at("line").get<int>() + 1;
  out.column = start.at("character").get<int>() + 1;
}

}  // namespace

PyrightReport parsePyrightJson(const std::string& text, const std::string& treeRoot) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("generalDiagnostics") ||
      !doc["generalDiagnostics"].is_array())
    throw std::runtime_error("pyright's output is not its JSON report (no generalDiagnostics)");
  PyrightReport report;
  // Every field read in the try: a report of the right shape with a field of the wrong type
  // (a number for the version) is malformed, never an exception that names no one.
  try {
    report.version = doc.value("version", "");
    if (doc.contains("summary") && doc["summary"].is_object())
      report.filesAnalyzed = doc["summary"].value("filesAnalyzed", 0);
    for (const json& d : doc["generalDiagnostics"]) {
      std::string rule = d.value("rule", "");
      std::string severity = d.at("severity").get<std::string>();
      auto kind = kindOfRule(rule, severity == "error");
      if (!kind) {
        ++report.otherDiagnostics;
        continue;
      }
      Diagnostic out;
      support::relativeTo(treeRoot, d.at("file").get<std::string>(), out.file);
      readStart(d, out);
      out.kind = *kind;
      out.rule = rule;
      out.message = d.at("message").get<std::string>();
      report.diagnostics.push_back(std::move(out));
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("pyright's JSON report is malformed: ") + e.what());
  }
  return report;
}

}  // namespace gridlock::rewrite::py::checks
