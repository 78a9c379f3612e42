// One subcommand of the gridlock binary. Each part registers its own; main.cpp only dispatches.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <vector>

namespace gridlock::cli {

// Adds the subcommand to `app` and returns what to run when it was chosen. The runner returns
// the process exit status (0 success, 1 the check found what it guards against, 2 bad input).
using Runner = std::function<int()>;

Runner addScanCommand(CLI::App& app);
Runner addGateCommand(CLI::App& app);
Runner addCallersCommand(CLI::App& app);
Runner addRewriteCommand(CLI::App& app);  // tool/rewrite
// The facts of the shards of one scan -> its report (cli/merge_command.cpp).
Runner addMergeCommand(CLI::App& app);
Runner addGridCommand(CLI::App& app);   // tool/layout
Runner addShardCommand(CLI::App& app);  // tool/layout
Runner addPairCommand(CLI::App& app);   // tool/pair

using Adder = Runner (*)(CLI::App&);
// The commands of this build alone, appended to `adders` after rewrite: defined by the one
// registration the binary links, cli/commands_full.cpp (merge: shards' facts files need LLVM)
// or cli/commands_python.cpp (none).
void addBuildCommands(std::vector<Adder>& adders);

}  // namespace gridlock::cli
