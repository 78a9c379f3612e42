// gridlock: one binary, one subcommand per job (README.md, "Commands").
#include "cli/command.h"
#include "cli/version.h"

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
  std::vector<Adder> adders = {addScanCommand,    addGateCommand,  addCallersCommand,
                               addRewriteCommand, addMergeCommand, addGridCommand,
                               addShardCommand,   addPairCommand};
  std::vector<std::pair<CLI::App*, Runner>> commands;
  for (Adder add : adders) {
    size_t before = app.get_subcommands({}).size();
    Runner run = add(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(run));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    // Usage errors are bad input (2); --help and --version are success.
    return rc == 0 ? 0 : 2;
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const std::exception& e) {
    std::cerr << "gridlock: error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
