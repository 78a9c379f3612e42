// Options shared by every command that scans (scan, gate, callers, rewrite), read into the
// scan pipeline's request (pipeline/pipeline.h), and what the commands share around it.
#pragma once

#include "cli/cache_options.h"
#include "cli/project_config.h"
#include "pipeline/pipeline.h"
#include "report/reports.h"
#include "support/output.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gridlock::cli {

// What the command line and .gridlock.json ask of a scan: the pipeline's request, and what
// only the commands read.
struct ScanOptions : pipeline::ScanRequest {
  std::string config;  // --config FILE; "" searches upward from the working directory
  // --docs-url, else "docs_url" of .gridlock.json (ending in '/'); "": the build's default.
  std::string docsUrl;
};

// `rulesRequired` false: without --rules, every file under the root is in scope and nothing
// is a read (what `callers` needs).
void addScanOptions(CLI::App& cmd, ScanOptions& o, bool rulesRequired = true);

// The root a command works in without scanning (`rewrite --recover`): --root when given, else
// that of the project's .gridlock.json (its "root", or its directory), else --root's default.
std::string configuredRoot(const CLI::App& cmd, const ScanOptions& o);

// Compiler arguments given after `--` (main.cpp): applyConfig adds them to every unit's
// command, after --extra-arg and the config's extra_args.
void setCompilerArgsAfterDashDash(std::vector<std::string> args);
// Whether subcommand `name` scans, and so takes them.
bool takesCompilerArgs(const std::string& name);

// --docs-url URL, where a command writes SARIF: the base of each rule's helpUri.
void addDocsUrlOption(CLI::App& cmd, std::string& url);
// `url` as docsBaseUrl makes it; "" stays ""; throws ConfigError naming --docs-url otherwise.
std::string checkedDocsUrl(const std::string& url);

// --format, one of `choices` (listed in its help as "text | json | sarif"), into `format`.
CLI::Option* addFormatOption(CLI::App& cmd, report::Format& format,
                             const std::vector<report::Format>& choices);
// --omit-edges, where a command writes findings one by one (text, SARIF, GitHub).
void addOmitEdgesFlag(CLI::App& cmd, bool& omit);
// Throws ConfigError when --omit-edges is given with --format json, whose report lists every
// read (each says whether it is an edge's).
void checkOmitEdges(bool omit, report::Format format);
// --color auto|always|never, where a command prints diagnostics.
void addColorOption(CLI::App& cmd, std::string& color);
// Whether to colour what goes to file descriptor `fd`: always, never, or (auto) when it is a
// terminal and NO_COLOR is not set to a non-empty value (no-color.org).
bool colorOn(const std::string& color, int fd);

// Fills what the command line of `cmd` left unset from the project's `.gridlock.json`
// (`--config FILE`, else the nearest one upward from the working directory): -p, --rules
// (looked up beside the config), --root (default: the config's directory), --extra-arg,
// --remove-arg, --jobs, --docs-url. Throws when there is still no build directory, or no rules
// where `rulesRequired`. Returns the config that was read, if any (`gate` takes its baseline
// from it).
std::optional<ProjectConfig> applyConfig(const CLI::App& cmd, ScanOptions& o,
                                         bool rulesRequired = true);

// writeOutput(path, text): to `path` atomically, to stdout for "" and "-".
using support::writeOutput;
// Throws ConfigError ("-o out/x.json: the directory out does not exist") when writeOutput could
// not write `path`, so that a command says so before its scan, not after it. `option` names
// the flag that gave it; "" and "-" (stdout) pass.
void checkOutputPath(const std::string& option, const std::string& path);

// Prints parse errors to stderr and returns 2 when they are not allowed, else 0.
int parseErrorStatus(const pipeline::ScanRun& run, const ScanOptions& o);

}  // namespace gridlock::cli
