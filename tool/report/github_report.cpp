#include "report/reports.h"

#include <sstream>

namespace gridlock::report {
namespace {

// GitHub's escaping of a workflow command's message (actions/toolkit's escapeData) and of a
// property's value (escapeProperty: the separators too).
std::string escaped(const std::string& s, bool property) {
  std::string out;
  for (char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else if (property && c == ':')
      out += "%3A";
    else if (property && c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string githubCommand(const Annotation& a) {
  std::string props;
  auto prop = [&](const char* key, const std::string& value) {
    props += (props.empty() ? "" : ",") + std::string(key) + "=" + escaped(value, true);
  };
  if (!a.file.empty()) prop("file", a.file);
  if (a.line) prop("line", std::to_string(a.line));
  if (a.column) prop("col", std::to_string(a.column));
  if (a.endLine) prop("endLine", std::to_string(a.endLine));
  if (a.endColumn) prop("endColumn", std::to_string(a.endColumn));
  if (!a.title.empty()) prop("title", a.title);
  return "::" + a.level + (props.empty() ? "" : " " + props) + "::" + escaped(a.message, false) +
         "\n";
}

Annotation readAnnotation(const facts::Read& r, const std::string& level, const std::string& title,
                          const std::string& message) {
  Annotation a{level, r.file, r.line, r.column, 0, 0, title, message};
  // The read expression's end, as SARIF's region has it, when the frontend knows it.
  if (r.endLine > r.line || (r.endLine == r.line && r.endColumn > r.column)) {
    a.endLine = r.endLine;
    a.endColumn = r.endColumn;
  }
  if (r.macro)
    a.message += "\nexpanded from macro '" + *r.macro + "'" +
                 (r.spelling.empty() ? "" : " (spelled at " + r.spelling + ")");
  return a;
}

Annotation badSuppressionAnnotation(const facts::BadSuppression& b) {
  return {
      "warning", b.file, b.line, b.column, 0, 0, "gridlock-suppression", badSuppressionProblem(b)};
}

Annotation unusedAllowAnnotation(const facts::AllowFact& a, bool error) {
  return {error ? "error" : "warning", a.file,      a.line, a.column, 0, 0,
          kUnusedAllowCheck,           kUnusedAllow};
}

std::string githubAnnotations(const index::Inventory& inv, const Verdicts* verdicts,
                              bool omitEdges) {
  std::ostringstream out;
  for (size_t i = 0; i < inv.reads.size(); ++i) {
    const facts::Read& r = inv.reads[i];
    if (r.suppressed || (omitEdges && r.edge)) continue;
    out << githubCommand(readAnnotation(r, r.edge ? "notice" : "warning", readCheck(r),
                                        message(r, verdicts ? &(*verdicts)[i] : nullptr)));
  }
  for (const auto& b : inv.badSuppressions) out << githubCommand(badSuppressionAnnotation(b));
  for (const auto& a : inv.unusedAllows) out << githubCommand(unusedAllowAnnotation(a));
  for (const auto& e : inv.parseErrors) {
    std::string m = "failed to parse; its reads may be incomplete";
    for (const auto& line : e.messages) m += "\n" + line;
    out << githubCommand({"error", e.file, 0, 0, 0, 0, "gridlock-parse-error", m});
  }
  return out.str();
}

}  // namespace gridlock::report
