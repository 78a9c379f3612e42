// Options shared by every command that scans (scan, gate, callers, rewrite), and the scan
// pipeline itself: compile database + rules -> frontend -> index.
#pragma once

#include "cli/cache_options.h"
#include "cli/project_config.h"
#include "index/inventory.h"
#include "report/reports.h"
#include "rules/rule_set.h"

#include <CLI/CLI.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::cli {

struct ScanOptions {
  std::string buildDir;
  // More compile databases whose units are scanned too (a tests or examples build).
  std::vector<std::string> extraDbs;
  std::vector<std::string> rules;
  // Where rule names and relative pack paths are looked up first: a config's directory
  // (rules::PackAnchor); "" for the working directory.
  std::string rulesDir;
  std::string root = ".";
  std::vector<std::string> files;
  // `files` are what a diff touches (gate --changed-since): one that selects no unit is
  // skipped, and an empty list scans nothing (frontend::FrontendOptions::onlyFromDiff).
  bool filesFromDiff = false;
  std::string config;  // --config FILE; "" searches upward from the working directory
  bool quiet = false;  // -q: no progress line, no notes
  std::vector<std::string> extraArgs;
  std::vector<std::string> removeArgs;  // --remove-arg: globs (frontend::ArgRemover)
  unsigned jobs = 0;
  bool allowParseErrors = false;
  std::string resourceDir;
  std::string cudaPath = "/usr/local/cuda";
  // Absolute path -> contents scanned instead of the file on disk (rewrite's re-parse).
  std::map<std::string, std::string> overlay;
  // Also collect what only the rewriter needs (index::RewriteIndex).
  bool rewriteFacts = false;
  CacheFlags cache;
  // --docs-url, else "docs_url" of .gridlock.json (ending in '/'); "": the build's default.
  std::string docsUrl;
  // scan --shard I/N --facts-out FILE (cli/shard.h): scan a part, write its facts.
  std::string shard;
  std::string factsOut;
  // Python (cli/python_input.h): .gridlock.json's "python_roots" and "package_root".
  std::vector<std::string> pythonRoots;
  std::string packageRoot;
  // Why there is no build directory (no -p, no "build"): the error when nothing else is read.
  std::string noBuildDir;
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
// --color auto|always|never, where a command prints diagnostics.
void addColorOption(CLI::App& cmd, std::string& color);
// Whether to colour what goes to file descriptor `fd`: always, never, or (auto) when it is a
// terminal and NO_COLOR is not set.
bool colorOn(const std::string& color, int fd);

// Fills what the command line of `cmd` left unset from the project's `.gridlock.json`
// (`--config FILE`, else the nearest one upward from the working directory): -p, --rules
// (looked up beside the config), --root (default: the config's directory), --extra-arg,
// --remove-arg, --jobs, --docs-url. Throws when there is still no build directory, or no rules
// where `rulesRequired`. Returns the config that was read, if any (`gate` takes its baseline
// from it).
std::optional<ProjectConfig> applyConfig(const CLI::App& cmd, ScanOptions& o,
                                         bool rulesRequired = true);

struct ScanRun {
  rules::RuleSet rules;
  index::Inventory inventory;
  std::string root;     // real path
  bool subset = false;  // positional paths restricted the run to some units
};

// Throws on bad input (rules, database, positional paths, nothing to scan). Warns on stderr,
// once per process, of the rule-pack entries and scope include globs that matched nothing
// (warnUnmatched), except in a shard (--facts-out): merge warns for the whole.
ScanRun runScan(const ScanOptions& o);

// A pack entry that matches nothing would pass as "0 reads": warns on stderr, once per process,
// with one line per pack (how many of its entries matched nothing), or, with `verbose` (-v) or
// when it is one entry, one line per entry (rules::RuleSet::unmatched).
void warnUnmatched(const ScanRun& run, bool verbose);

// Writes `text` to `path` (support/atomic_write.h), or to stdout when path is empty or "-".
void writeOutput(const std::string& path, const std::string& text);
// Throws ConfigError ("-o out/x.json: the directory out does not exist") when writeOutput could
// not write `path`, so that a command says so before its scan, not after it. `option` names
// the flag that gave it; "" and "-" (stdout) pass.
void checkOutputPath(const std::string& option, const std::string& path);

// Prints parse errors to stderr and returns 2 when they are not allowed, else 0.
int parseErrorStatus(const ScanRun& run, const ScanOptions& o);

}  // namespace gridlock::cli
