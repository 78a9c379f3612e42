// gridlock: one binary, one subcommand per job (README.md, "Commands").
#include "apply/journal.h"
#include "cli/command.h"
#include "cli/help_text.h"
#include "cli/scan_options.h"
#include "cli/version.h"
#include "support/interrupt.h"
#include "support/nearest.h"

#include <algorithm>
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

// 0, or 2 with the error printed when the first argument is not an option and names no command
// (CLI11 would only say that a subcommand is required).
int unknownCommand(const CLI::App& app, const std::vector<std::string>& args) {
  if (args.empty() || args[0].empty() || args[0][0] == '-') return 0;
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  if (std::find(names.begin(), names.end(), args[0]) != names.end()) return 0;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  std::cerr << "gridlock: error: unknown command '" << args[0] << "'"
            << gridlock::support::didYouMean(args[0], names) << "\nCommands: " << list
            << " (gridlock --help says more).\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gridlock::cli;
  CLI::App app{"gridlock: find and remove reads of global process-group state"};
  app.require_subcommand(1);
  app.set_version_flag("--version", versionLine());

  std::vector<Adder> adders = {addScanCommand, addGateCommand, addCallersCommand,
                               addRewriteCommand};
  addBuildCommands(adders);
  for (Adder add : {addGridCommand, addShardCommand, addPairCommand}) adders.push_back(add);
  std::vector<std::pair<CLI::App*, Runner>> commands;
  for (Adder add : adders) {
    size_t before = app.get_subcommands({}).size();
    Runner run = add(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(run));
  }
  describeCommands(app);

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
  if (int rc = unknownCommand(app, args)) return rc;
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector in reverse order
  try {
    app.parse(args);
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
      std::string held = gridlock::apply::journalRootAtOrAbove(dir);
      if (held.empty()) continue;
      std::cerr << "gridlock: error: "
                << gridlock::apply::journalMessage(held, gridlock::apply::journalState(held))
                << "\n";
      return 2;
    }
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
  } catch (const gridlock::support::Interrupted& e) {
    // Thrown only while gridlock waited on a checker, before anything is written; the
    // checker's group is stopped and its copy of the tree removed by now.
    std::cerr << "gridlock: " << e.what()
              << "; stopped the program it was running and removed its temporary files; "
                 "nothing was written\n";
    return 128 + e.signal();
  } catch (const std::exception& e) {
    std::cerr << "gridlock: error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
