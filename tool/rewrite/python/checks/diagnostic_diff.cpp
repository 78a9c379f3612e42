#include "rewrite/python/checks/diagnostic_diff.h"

#include <algorithm>
#include <map>
#include <regex>
#include <tuple>

namespace gridlock::rewrite::py::checks {
namespace {

using Key = std::tuple<std::string, DiagnosticKind, std::string, std::string>;

Key keyOf(const Diagnostic& d) { return {d.file, d.kind, d.rule, normalisedMessage(d.message)}; }

bool byPosition(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
}

}  // namespace

std::string normalisedMessage(const std::string& message) {
  static const std::regex lines(R"(\b([Ll]ines?) \d+(-\d+)?)");
  static const std::regex fileLine(R"((\.pyi?):\d+(:\d+)?)");
  std::string s = std::regex_replace(message, lines, "$1 #");
  return std::regex_replace(s, fileLine, "$1:#");
}

std::vector<NewDiagnostic> newDiagnostics(const std::vector<Diagnostic>& before,
                                          const std::vector<Diagnostic>& after) {
  std::map<Key, int> counts;
  for (const Diagnostic& d : before) ++counts[keyOf(d)];
  std::map<Key, NewDiagnostic> grouped;
  for (const Diagnostic& d : after) {
    Key key = keyOf(d);
    NewDiagnostic& n = grouped[key];
    n.before = counts[key];
    n.at.push_back(d);
  }
  std::vector<NewDiagnostic> added;
  for (auto& [key, n] : grouped) {
    if (static_cast<int>(n.at.size()) <= n.before) continue;
    std::sort(n.at.begin(), n.at.end(), byPosition);
    added.push_back(std::move(n));
  }
  std::sort(added.begin(), added.end(), [](const NewDiagnostic& a, const NewDiagnostic& b) {
    return byPosition(a.at.front(), b.at.front());
  });
  return added;
}

std::string describe(const NewDiagnostic& d) {
  std::string s = describe(d.at.front());
  if (d.before == 0 && d.at.size() == 1) return s;
  s += " (" + std::to_string(d.before) + " before, " + std::to_string(d.at.size()) + " after";
  for (size_t i = 1; i < d.at.size(); ++i)
    s += (i == 1 ? "; also line " : ", ") + std::to_string(d.at[i].line);
  return s + ")";
}

}  // namespace gridlock::rewrite::py::checks
