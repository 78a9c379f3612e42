// gridlock callers: every site that reaches a function or constructor, and whether it
// supplies a parameter.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "analysis/callers.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

namespace gridlock::cli {
namespace {

std::string jsonOf(const analysis::CallersResult& r) {
  nlohmann::ordered_json j;
  j["target"] = r.target;
  j["param"] = r.param;
  j["param_index"] = r.paramIndex;
  j["public_api"] = r.publicApi;
  j["classes"] = r.classes;
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (const auto& s : r.sites) {
    nlohmann::ordered_json o;
    o["file"] = s.file;
    o["line"] = s.line;
    o["column"] = s.column;
    o["class"] = s.className;
    o["via"] = s.via;
    o["supplied"] = s.supplied;
    if (!s.forwardedFrom.empty()) o["forwarded_from"] = s.forwardedFrom;
    o["function"] = s.function;
    o["caller"] = s.caller;
    sites.push_back(o);
  }
  j["sites"] = sites;
  nlohmann::ordered_json summary;
  for (const char* k : {"sites", "explicit", "default", "null", "forwarded"}) summary[k] = r.summary.at(k);
  j["summary"] = summary;
  return j.dump(2) + "\n";
}

std::string tableOf(const analysis::CallersResult& r) {
  std::ostringstream out;
  out << r.target << ", parameter " << r.param << " (#" << r.paramIndex << ")"
      << (r.publicApi ? ", declared in a public header" : "") << "\n";
  if (!r.classes.empty()) {
    out << "classes:";
    for (const auto& c : r.classes) out << " " << c;
    out << "\n";
  }
  for (const auto& s : r.sites) {
    out << "  " << s.file << ":" << s.line << ":" << s.column << "  " << s.supplied << "  via "
        << s.via;
    if (!s.className.empty()) out << "  class " << s.className;
    if (s.function != r.target) out << "  calls " << s.function;
    if (!s.forwardedFrom.empty()) out << "  from " << s.forwardedFrom;
    out << "\n";
  }
  out << r.summary.at("sites") << " sites: " << r.summary.at("explicit") << " explicit, "
      << r.summary.at("default") << " default, " << r.summary.at("null") << " null, "
      << r.summary.at("forwarded") << " forwarded\n";
  return out.str();
}

}  // namespace

Runner addCallersCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("callers", "Every site that reaches a function or constructor");
  auto o = std::make_shared<ScanOptions>();
  auto function = std::make_shared<std::string>();
  auto param = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("text");
  auto output = std::make_shared<std::string>();
  addScanOptions(*cmd, *o, /*rulesRequired=*/false);
  cmd->add_option("--function", *function, "Qualified name (a constructor: Class::Class)")->required();
  cmd->add_option("--param", *param, "Parameter name")->required();
  cmd->add_option("--format", *format, "text | json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", *output, "Write the report here instead of stdout");
  return [=]() {
    ScanRun run = runScan(*o);
    if (int rc = parseErrorStatus(run, *o)) return rc;
    analysis::CallersResult r;
    try {
      r = analysis::callers(run.inventory.program, *function, *param);
    } catch (const analysis::CallersError& e) {
      std::cerr << "gridlock: error: " << e.what() << "\n";
      return 2;
    }
    writeOutput(*output, *format == "json" ? jsonOf(r) : tableOf(r));
    return 0;
  };
}

}  // namespace gridlock::cli
