#include "report/reports.h"

#include "index/path_text.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace gridlock::report {

std::string callersJson(const analysis::CallersResult& r) {
  using ojson = nlohmann::ordered_json;
  ojson j;
  j["version"] = kCallersJsonVersion;
  j["target"] = r.target;
  j["param"] = r.param;
  j["param_index"] = r.paramIndex;
  j["public_api"] = r.publicApi;
  j["classes"] = r.classes;
  ojson sites = ojson::array();
  for (const auto& s : r.sites) {
    ojson o;
    o["file"] = index::jsonPath(s.file);
    o["line"] = s.line;
    o["column"] = s.column;
    o["class"] = s.className;
    o["via"] = facts::str(s.via);
    o["supplied"] = facts::str(s.supplied);
    if (s.passed != facts::Passed::Unknown) o["passed"] = facts::str(s.passed);
    if (!s.forwardedFrom.empty()) o["forwarded_from"] = s.forwardedFrom;
    o["function"] = s.function;
    o["caller"] = s.caller;
    if (!r.writes.empty()) o["writes"] = r.writes;
    if (!s.downstream.empty()) o["downstream"] = index::jsonPath(s.downstream);
    sites.push_back(o);
  }
  j["sites"] = sites;
  ojson summary;
  summary["sites"] = r.sites.size();
  for (const auto& [supplied, n] : r.bySupplied) summary[facts::str(supplied)] = n;
  if (!r.byPassed.empty()) {
    ojson passed;
    for (const auto& [how, n] : r.byPassed) passed[facts::str(how)] = n;
    summary["passed"] = passed;
  }
  j["summary"] = summary;
  // Python: where what reaches the target is handed on as a value, unfollowed.
  j["complete"] = r.complete();
  ojson escapes = ojson::array();
  for (const auto& e : r.escapes) {
    ojson o = {{"file", index::jsonPath(e.file)},
               {"line", e.line},
               {"column", e.column},
               {"value", e.value},
               {"how", e.how}};
    if (!e.downstream.empty()) o["downstream"] = index::jsonPath(e.downstream);
    escapes.push_back(o);
  }
  j["escapes"] = escapes;
  return j.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

std::string callersText(const analysis::CallersResult& r) {
  using facts::Supplied;
  std::ostringstream out;
  out << r.target << ", parameter " << r.param << " (#" << r.paramIndex << ")"
      << (r.publicApi ? ", declared in a public header" : "") << "\n";
  if (!r.classes.empty()) {
    out << "classes:";
    for (const auto& c : r.classes) out << " " << c;
    out << "\n";
  }
  for (const auto& s : r.sites) {
    out << "  " << index::textPath(s.file) << ":" << s.line << ":" << s.column << "  "
        << facts::spell(s.supplied) << "  via " << facts::spell(s.via);
    if (s.passed != facts::Passed::Unknown) out << "  passed " << facts::spell(s.passed);
    if (!s.className.empty()) out << "  class " << s.className;
    if (s.function != r.target) out << "  calls " << s.function;
    if (!s.forwardedFrom.empty()) out << "  from " << s.forwardedFrom;
    if (!r.writes.empty()) out << "  writes " << r.writes;
    if (!s.downstream.empty()) out << "  downstream " << index::textPath(s.downstream);
    out << "\n";
  }
  out << r.sites.size() << " sites: " << r.bySupplied.at(Supplied::Explicit) << " explicit, "
      << r.bySupplied.at(Supplied::Default) << " default, " << r.bySupplied.at(Supplied::Null)
      << " null, " << r.bySupplied.at(Supplied::Forwarded) << " forwarded";
  // Python: how the sites write it (positional, keyword, omitted, *args, **kwargs, twice).
  const char* sep = "; passed ";
  for (const auto& [how, n] : r.byPassed) {
    out << sep << n << " " << facts::spell(how);
    sep = ", ";
  }
  out << "\n";
  if (!r.complete()) {
    out << "may be incomplete: " << r.escapes.size()
        << " place(s) hand on as a value what reaches it; calls from there are not listed:\n";
    for (const auto& e : r.escapes)
      out << "  " << e.file << ":" << e.line << ":" << e.column << "  " << e.value << " " << e.how
          << (e.downstream.empty() ? "" : "  downstream " + index::textPath(e.downstream)) << "\n";
  }
  return out.str();
}

}  // namespace gridlock::report
