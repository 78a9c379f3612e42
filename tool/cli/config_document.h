// The text of a project's configuration as one object of keys: `.gridlock.json` itself, or the
// [tool.gridlock] table of a pyproject.toml (any file ending in .toml), read with toml++
// (support/toml_table.h). Both hold the same keys (docs/configuration.md); project_config
// checks them with the same code, and names a key as the file's own syntax would.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace gridlock::cli {

inline constexpr const char* kPyprojectName = "pyproject.toml";

// Whether `path` is read as TOML (its [tool.gridlock] table) rather than JSON.
bool isTomlConfig(const std::string& path);

struct ConfigDocument {
  std::string path;
  bool toml = false;
  nlohmann::json value;                                        // an object
  std::map<std::string, std::pair<unsigned, unsigned>> where;  // TOML: by JSON pointer

  // Where a message about `key` ("rules", or "rules/0" for an element) starts:
  // "FILE: /rules/0" in JSON, "FILE:LINE:COLUMN: tool.gridlock.rules[0]" in TOML.
  std::string at(const std::string& key) const;
  // How a message names `key` for the user to set: "\"baseline\" in FILE", or "baseline in
  // [tool.gridlock] of FILE".
  static std::string keyIn(const std::string& path, const std::string& key);
};

// The document in `text`, the contents of `path`; nullopt for a TOML file without a
// [tool.gridlock] table. Throws ConfigError: invalid JSON or TOML, not an object or table.
std::optional<ConfigDocument> readConfigDocument(const std::string& path, const std::string& text);

}  // namespace gridlock::cli
