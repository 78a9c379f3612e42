// gridlock callers: every site that reaches a function or constructor, and whether it
// supplies a parameter.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "analysis/callers.h"
#include "report/reports.h"

#include <iostream>
#include <memory>

namespace gridlock::cli {
Runner addCallersCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("callers", "Every site that reaches a function or constructor");
  auto o = std::make_shared<ScanOptions>();
  auto function = std::make_shared<std::string>();
  auto param = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("text");
  auto output = std::make_shared<std::string>();
  addScanOptions(*cmd, *o, /*rulesRequired=*/false);
  cmd->add_option("--function", *function, "Qualified name (a constructor: Class::Class)")
      ->required();
  cmd->add_option("--param", *param, "Parameter name")->required();
  cmd->add_option("--format", *format, "text | json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", *output, "Write the report here instead of stdout");
  return [=]() {
    ScanOptions opts = *o;
    applyConfig(*cmd, opts, /*rulesRequired=*/false);
    ScanRun run = runScan(opts);
    if (int rc = parseErrorStatus(run, opts)) return rc;
    analysis::CallersResult r;
    try {
      r = analysis::callers(run.inventory.program, *function, *param);
    } catch (const analysis::CallersError& e) {
      std::cerr << "gridlock: error: " << e.what() << "\n";
      return 2;
    }
    writeOutput(*output, *format == "json" ? report::callersJson(r) : report::callersText(r));
    return 0;
  };
}

}  // namespace gridlock::cli
