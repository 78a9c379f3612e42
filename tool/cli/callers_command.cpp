// gridlock callers: every site that reaches a function or constructor, and whether it
// supplies a parameter.
#include "cli/command.h"
#include "cli/scan_options.h"

#include "analysis/callers.h"
#include "analysis/downstream_callers.h"
#include "report/reports.h"

#include <iostream>
#include <memory>

namespace gridlock::cli {
namespace {

// The frontend keeps only the calls that can reach what the packs scan
// (frontend/reaching_calls.h): a target declared elsewhere would get an incomplete answer.
std::string outsideScope(const pipeline::ScanRun& run, const std::string& function) {
  if (run.rules.setter(function) || run.rules.pythonSetter(function)) return "";  // kept anywhere
  std::string file;
  for (const auto& [usr, f] : run.inventory.program.functions) {
    if (f.name != function) continue;
    if (run.rules.placeAny(f.file, true) != rules::Placement::Out) return "";
    file = f.file;
  }
  if (file.empty()) return "";  // not declared at all: analysis::callers says so
  return function + " is declared in " + file +
         ", which no rule pack scans: its call sites are collected only for functions in "
         "scanned files (add " +
         file + " to a pack's scope.include or scope.edges)";
}

}  // namespace
Runner addCallersCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("callers", "Every site that reaches a function or constructor");
  auto o = std::make_shared<ScanOptions>();
  auto function = std::make_shared<std::string>();
  auto param = std::make_shared<std::string>();
  auto format = std::make_shared<report::Format>(report::Format::Text);
  auto output = std::make_shared<std::string>();
  addScanOptions(*cmd, *o, /*rulesRequired=*/false);
  cmd->add_option("--function", *function, "Qualified name (a constructor: Class::Class)")
      ->required();
  cmd->add_option("--param", *param, "Parameter name")->required();
  addFormatOption(*cmd, *format, {report::Format::Text, report::Format::Json});
  cmd->add_option("-o,--output", *output, "Write the report here instead of stdout");
  return [=]() {
    ScanOptions opts = *o;
    applyConfig(*cmd, opts, /*rulesRequired=*/false);
    checkOutputPath("-o", *output);
    pipeline::ScanRun run = pipeline::scan(opts);
    if (int rc = parseErrorStatus(run, opts)) return rc;
    if (std::string why = outsideScope(run, *function); !why.empty()) {
      std::cerr << "gridlock: error: " << why << "\n";
      return 2;
    }
    analysis::CallersResult r;
    try {
      r = analysis::everyCaller(run.inventory, *function, *param);
      const rules::SetterRule* st = run.rules.setter(*function);
      if (!st) st = run.rules.pythonSetter(*function);
      if (st) r.writes = st->writes.empty() ? *function : st->writes;
    } catch (const analysis::CallersError& e) {
      std::cerr << "gridlock: error: " << e.what() << "\n";
      return 2;
    }
    writeOutput(*output,
                *format == report::Format::Json ? report::callersJson(r) : report::callersText(r));
    return 0;
  };
}

}  // namespace gridlock::cli
