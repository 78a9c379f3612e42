// gridlock: one binary, one subcommand per job (README.md, "Commands").
#include "cli/command.h"
#include "cli/version.h"
#include "rewrite/journal.h"

#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

// The source trees a parsed subcommand reads: --root (default: the current directory) of the
// commands that scan, but not of `rewrite --recover`, which is the way out; pair's --baseline
// and --change when they are directories (a git revision is checked out fresh).
std::vector<std::string> treesOf(CLI::App& sub) {
  std::vector<std::string> out;
  if (sub.get_name() == "pair") {
    for (const char* name : {"--baseline", "--change"}) {
      CLI::Option* tree = sub.get_option_no_throw(name);
      std::error_code ec;
      if (tree && tree->count() > 0 && std::filesystem::is_directory(tree->as<std::string>(), ec))
        out.push_back(tree->as<std::string>());
    }
    return out;
  }
  CLI::Option* root = sub.get_option_no_throw("--root");
  if (!root) return out;
  CLI::Option* recover = sub.get_option_no_throw("--recover");
  if (recover && recover->count() > 0) return out;
  out.push_back(root->count() > 0 ? root->as<std::string>() : std::string("."));
  return out;
}

}  // namespace

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
  // A command that reads a tree an interrupted (or running) rewrite --apply left mixed would
  // report on, gate, rewrite again, or build and test files that are half old, half new.
  for (auto& [sub, run] : commands) {
    if (!sub->parsed()) continue;
    for (const std::string& dir : treesOf(*sub)) {
      std::string held = gridlock::rewrite::journalRootAtOrAbove(dir);
      if (held.empty()) continue;
      std::cerr << "gridlock: error: "
                << gridlock::rewrite::journalMessage(held, gridlock::rewrite::journalState(held))
                << "\n";
      return 2;
    }
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
