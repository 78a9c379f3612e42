// gridlock: one binary, one subcommand per job (README.md, "Commands").
#include "cli/command.h"
#include "cli/scan_options.h"
#include "cli/version.h"

#include <algorithm>
#include <exception>
#include <iostream>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  using namespace gridlock::cli;
  CLI::App app{"gridlock: find and remove reads of global process-group state"};
  app.require_subcommand(1);
  app.set_version_flag("--version", versionLine());

  using Adder = Runner (*)(CLI::App&);
  std::vector<Adder> adders = {addScanCommand,    addGateCommand, addCallersCommand,
                               addRewriteCommand, addGridCommand, addShardCommand,
                               addPairCommand};
  std::vector<std::pair<CLI::App*, Runner>> commands;
  for (Adder add : adders) {
    size_t before = app.get_subcommands({}).size();
    Runner run = add(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(run));
  }

  // Option errors read like every other error.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return std::string("gridlock: error: ") + e.what() + "\nRun with --help for the options.\n";
  });

  // What follows `--` is compiler arguments for every unit (as clang-tidy takes them), not
  // files: CLI11 sees only what comes before.
  std::vector<std::string> args(argv + 1, argv + argc), compilerArgs;
  if (auto dd = std::find(args.begin(), args.end(), "--"); dd != args.end()) {
    compilerArgs.assign(dd + 1, args.end());
    args.erase(dd, args.end());
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector in reverse order
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    // Usage errors are bad input (2); --help and --version are success.
    return rc == 0 ? 0 : 2;
  }
  try {
    for (auto& [sub, run] : commands) {
      if (!sub->parsed()) continue;
      if (!compilerArgs.empty() && !takesCompilerArgs(sub->get_name())) {
        std::cerr << "gridlock: error: " << sub->get_name()
                  << " takes no compiler arguments after --\n";
        return 2;
      }
      setCompilerArgsAfterDashDash(compilerArgs);
      return run();
    }
  } catch (const std::exception& e) {
    std::cerr << "gridlock: error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
