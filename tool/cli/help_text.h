// What `gridlock --help` and `gridlock COMMAND --help` say beyond the options: usage lines that
// name the program (and `[-- COMPILER-ARG...]` where a command takes them), the formats and the
// exit statuses. The man page, gridlock.1, is made from this same text at build time
// (cmake/man_page.cmake runs the built binary's --help), and the shell completions read the
// options from it (completions/).
#pragma once

#include <CLI/CLI.hpp>

namespace gridlock::cli {

// Names `app` "gridlock" and gives it and each of its subcommands (added before) their help.
void describeCommands(CLI::App& app);

}  // namespace gridlock::cli
