// `.gridlock.json`, the project's configuration, found by searching upward from the working
// directory the way clang-tidy finds `.clang-tidy`, or the [tool.gridlock] table of a
// pyproject.toml (the same keys; cli/config_document.h). Its directory is the project root;
// every path in it is relative to that directory. Command-line options override it
// (docs/configuration.md; schema/config.schema.json).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridlock::cli {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every path is absolute, resolved against the config file's directory.
struct ProjectConfig {
  std::string path;  // the file itself
  std::string dir;   // its directory (real path): the default root, the anchor of names
  std::optional<std::string> build;
  std::vector<std::string> rules;  // names stay names (looked up beside the file first)
  std::optional<std::string> baseline;
  std::optional<std::string> root;
  std::optional<std::vector<std::string>> extraArgs;
  std::optional<std::vector<std::string>> removeArgs;  // globs (frontend::ArgRemover)
  std::optional<unsigned> jobs;
  std::optional<std::string> docsUrl;  // "docs_url", ending in '/' (docsBaseUrl)
  // Python (docs/configuration.md): the directories whose .py files are read, and where
  // module names start; both relative to the root.
  std::optional<std::vector<std::string>> pythonRoots;
  std::optional<std::string> packageRoot;
  // Downstream checkouts (python/downstream.h): other projects' directories, absolute.
  std::optional<std::vector<std::string>> downstream;
};

inline constexpr const char* kConfigName = ".gridlock.json";

// `url` as the base of SARIF's help links: an http:// or https:// URL, with a '/' added when
// it lacks one; nullopt for anything else.
std::optional<std::string> docsBaseUrl(const std::string& url);
inline constexpr const char* kDocsUrlExpected =
    "expected an http:// or https:// URL of the docs pages";

// The nearest `.gridlock.json`, or pyproject.toml with a [tool.gridlock] table, in `start` or a
// directory above it that the user or root owns (or whose directory GRIDLOCK_SAFE_DIRECTORIES
// lists: support/ownership.h); one of another user is skipped with a warning. Where a directory
// holds both, .gridlock.json is used and a note says that the table is not read. A
// pyproject.toml of the user's that is not TOML is an error (ConfigError). "" when there is none.
std::string findConfig(const std::string& start);

// A file the config names or that is found beside it (its baseline, a pack), when it is a
// symbolic link: judged as the config is, by the owners of the link and of its target
// (support::distrustPath), unless GRIDLOCK_SAFE_DIRECTORIES lists the config's directory.
// Throws ConfigError naming `what` ("the baseline") and why, never follows it on trust.
void requireTrusted(const std::string& file, const ProjectConfig& config, const std::string& what);

// Reads and checks a config file (.gridlock.json, or a .toml file's [tool.gridlock]): unknown
// keys, wrong types, invalid JSON or TOML and a .toml file without the table are errors that
// name the file, the key (in TOML with its line and column) and the problem (ConfigError).
ProjectConfig loadConfig(const std::string& path);

}  // namespace gridlock::cli
