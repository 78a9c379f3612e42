#include "cli/config_document.h"

#include "cli/project_config.h"
#include "support/toml_table.h"

namespace gridlock::cli {

bool isTomlConfig(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".toml") == 0;
}

std::string ConfigDocument::at(const std::string& key) const {
  if (!toml) return path + ": /" + key;
  // "rules/0" -> tool.gridlock.rules[0]
  std::string name = "tool.gridlock", pointer;
  size_t start = 0;
  for (;;) {
    size_t slash = key.find('/', start);
    std::string part =
        key.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    pointer += "/" + part;
    bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos &&
                 pointer.size() > part.size() + 1;
    name += index ? "[" + part + "]" : "." + part;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  auto found = where.find(pointer);
  std::string place = found == where.end() ? path
                                           : path + ":" + std::to_string(found->second.first) +
                                                 ":" + std::to_string(found->second.second);
  return place + ": " + name;
}

std::string ConfigDocument::keyIn(const std::string& path, const std::string& key) {
  if (isTomlConfig(path)) return key + " in [tool.gridlock] of " + path;
  return "\"" + key + "\" in " + path;
}

std::optional<ConfigDocument> readConfigDocument(const std::string& path, const std::string& text) {
  ConfigDocument doc;
  doc.path = path;
  doc.toml = isTomlConfig(path);
  if (doc.toml) {
    std::optional<support::TomlTable> table;
    try {
      table = support::tomlTable(text, path, {"tool", "gridlock"});
    } catch (const support::TomlError& e) {
      throw ConfigError(e.what());
    }
    if (!table) return std::nullopt;
    doc.value = std::move(table->value);
    doc.where = std::move(table->where);
    return doc;
  }
  try {
    doc.value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError(path + ": invalid JSON: " + e.what());
  }
  if (!doc.value.is_object()) throw ConfigError(path + ": expected a JSON object");
  return doc;
}

}  // namespace gridlock::cli
