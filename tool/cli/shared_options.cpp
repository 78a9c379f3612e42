// What the options every scanning command shares mean once parsed: .gridlock.json filling
// what the command line left unset, compiler arguments after `--`, --color.
#include "cli/scan_options.h"

#include "cli/config_document.h"
#include "pipeline/frontend.h"
#include "rules/pack_lookup.h"
#include "support/paths.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace gridlock::cli {

namespace {
std::vector<std::string>& compilerArgsAfterDashDash() {
  static std::vector<std::string> args;
  return args;
}
// What a run with no build directory and nothing else to scan is told, `config` the path of
// the configuration found ("" for none): the full build asks for the compile database, the
// Python build, which refuses one, for a pack of Python rules.
std::string nothingToScan(const std::string& config) {
  if (pipeline::readsCompileDatabases())
    return "no build directory: pass -p BUILD (the directory holding compile_commands.json, or "
           "the file itself) or set " +
           (config.empty() ? "\"build\" in a .gridlock.json (none found from the current "
                             "directory upward)"
                           : ConfigDocument::keyIn(config, "build"));
  return "nothing to scan: pass --rules PACK (a rule pack with Python rules: a shipped name such "
         "as megatron-core, or a path) and --root DIR (the project, when it is not the current "
         "directory), or set " +
         (config.empty() ? "\"rules\" in a .gridlock.json or rules in [tool.gridlock] of a "
                           "pyproject.toml (none found from the current directory upward)"
                         : ConfigDocument::keyIn(config, "rules"));
}

}  // namespace

void setCompilerArgsAfterDashDash(std::vector<std::string> args) {
  compilerArgsAfterDashDash() = std::move(args);
}

bool takesCompilerArgs(const std::string& name) {
  return name == "scan" || name == "gate" || name == "callers" || name == "rewrite";
}

void addDocsUrlOption(CLI::App& cmd, std::string& url) {
  cmd.add_option("--docs-url", url,
                 "SARIF: base URL of the docs pages each rule's helpUri links to (default: "
                 "\"docs_url\" of .gridlock.json, else the docs of this version online)");
}

std::string checkedDocsUrl(const std::string& url) {
  if (url.empty()) return url;
  std::optional<std::string> base = docsBaseUrl(url);
  if (!base) throw ConfigError("--docs-url " + url + ": " + kDocsUrlExpected);
  return *base;
}

CLI::Option* addFormatOption(CLI::App& cmd, report::Format& format,
                             const std::vector<report::Format>& choices) {
  std::vector<std::string> names;
  std::string help;
  for (report::Format f : choices) {
    names.push_back(facts::str(f));
    help += (help.empty() ? "" : " | ") + names.back();
  }
  return cmd
      .add_option_function<std::string>(
          "--format",
          [&format](const std::string& name) { format = *facts::parse<report::Format>(name); },
          help)
      ->check(CLI::IsMember(names));
}

void addOmitEdgesFlag(CLI::App& cmd, bool& omit) {
  cmd.add_flag("--omit-edges", omit,
               "Leave out the reads and writes of edge files (counted apart, never gated): "
               "SARIF's notes, the text's remarks, GitHub's notices (not with --format json)");
}

void checkOmitEdges(bool omit, report::Format format) {
  if (omit && format == report::Format::Json)
    throw ConfigError(
        "--omit-edges: the JSON report lists every read (its \"edge\" says which are an edge "
        "file's); leave the flag out or filter on it");
}

void addColorOption(CLI::App& cmd, std::string& color) {
  cmd.add_option("--color", color, "Colour diagnostics: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

bool colorOn(const std::string& color, int fd) {
  if (color == "always") return true;
  if (color == "never") return false;
  // no-color.org: NO_COLOR set to anything but "" turns colour off.
  const char* noColor = std::getenv("NO_COLOR");
  return isatty(fd) && !(noColor && *noColor);
}

std::string configuredRoot(const CLI::App& cmd, const ScanOptions& o) {
  if (cmd.count("--root")) return o.root;
  std::string path = o.config.empty() ? findConfig(".") : o.config;
  if (path.empty()) return o.root;
  ProjectConfig config = loadConfig(path);
  return config.root ? *config.root : config.dir;
}

std::optional<ProjectConfig> applyConfig(const CLI::App& cmd, ScanOptions& o, bool rulesRequired) {
  std::optional<ProjectConfig> config;
  std::string path = o.config;
  if (!path.empty() && !support::isRegularFile(path))
    throw ConfigError("--config " + path + ": no such file");
  if (path.empty()) path = findConfig(".");
  if (!path.empty()) config = loadConfig(path);
  if (config) {
    if (!cmd.count("-p") && config->build) o.buildDir = *config->build;
    if (!cmd.count("--rules") && !config->rules.empty()) {
      o.rules = config->rules;
      o.rulesDir = config->dir;
      for (const auto& ref : o.rules) {
        std::string pack = rules::isPackName(ref)     ? config->dir + "/" + ref + ".json"
                           : support::isAbsolute(ref) ? ref
                                                      : config->dir + "/" + ref;
        requireTrusted(pack, *config, "the rule pack");
      }
      o.rulesConfigName = support::fileName(config->path);
    } else {
      // A name on the command line is looked up beside the config too (a path stays relative
      // to the working directory).
      for (auto& ref : o.rules) {
        std::string beside = config->dir + "/" + ref + ".json";
        if (rules::isPackName(ref) && support::isRegularFile(beside)) {
          requireTrusted(beside, *config, "the rule pack");
          ref = beside;
        }
      }
    }
    if (!cmd.count("--root")) o.root = config->root ? *config->root : config->dir;
    if (!cmd.count("--extra-arg") && config->extraArgs) o.extraArgs = *config->extraArgs;
    if (!cmd.count("--remove-arg") && config->removeArgs) o.removeArgs = *config->removeArgs;
    if (!cmd.count("--jobs") && config->jobs) o.jobs = *config->jobs;
    if (config->pythonRoots) o.pythonRoots = *config->pythonRoots;
    if (config->packageRoot) o.packageRoot = *config->packageRoot;
    if (!cmd.count("--downstream") && config->downstream) o.downstream = *config->downstream;
  }
  o.docsUrl = checkedDocsUrl(o.docsUrl);
  if (o.docsUrl.empty() && config && config->docsUrl) o.docsUrl = *config->docsUrl;
  if (config && o.cache.verbose)
    std::cerr << "gridlock: using " << config->path << " (root "
              << (cmd.count("--root") ? o.root
                  : config->root      ? *config->root
                                      : config->dir)
              << ")\n";
  const auto& after = compilerArgsAfterDashDash();
  o.extraArgs.insert(o.extraArgs.end(), after.begin(), after.end());
  // Without one, the scan reads Python only, when the packs or the config ask for it
  // (runScan); otherwise this is the error: in the binary's terms, for the Python build (which
  // refuses -p) the packs.
  if (o.buildDir.empty()) o.noBuildDir = nothingToScan(config ? config->path : std::string());
  // Neither a build directory nor anything that asks for Python: the first thing missing.
  if (o.buildDir.empty() && o.pythonRoots.empty() && o.rules.empty())
    throw ConfigError(o.noBuildDir);
  if (rulesRequired && o.rules.empty())
    throw ConfigError(
        std::string("no rule pack: pass --rules PACK (a shipped name such as "
                    "gridlock-legacy or mpi, or a path) or set ") +
        (config ? ConfigDocument::keyIn(config->path, "rules") : "\"rules\" in a .gridlock.json"));
  return config;
}

}  // namespace gridlock::cli
