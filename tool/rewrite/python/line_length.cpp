#include "rewrite/python/line_length.h"

#include "support/file_io.h"
#include "support/toml_table.h"

#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

namespace gridlock::rewrite::py {
namespace {

std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string normal(const std::filesystem::path& p) {
  std::string s = p.lexically_normal().generic_string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// section -> key -> value, of an INI file's `key = value` lines (setup.cfg; comments dropped).
std::map<std::string, std::map<std::string, std::string>> settings(const std::string& text) {
  std::map<std::string, std::map<std::string, std::string>> found;
  std::istringstream in(text);
  std::string line, section;
  while (std::getline(in, line)) {
    std::string l = trimmed(line.substr(0, line.find('#')));
    if (l.size() > 2 && l.front() == '[' && l.back() == ']') {
      section = trimmed(l.substr(1, l.size() - 2));
      continue;
    }
    size_t eq = l.find('=');
    if (eq == std::string::npos) continue;
    found[section][trimmed(l.substr(0, eq))] = trimmed(l.substr(eq + 1));
  }
  return found;
}

// A positive line length: a TOML integer, or setup.cfg's digits.
unsigned lengthOf(const nlohmann::json& v) {
  if (!v.is_number_unsigned()) return 0;
  uint64_t n = v.get<uint64_t>();
  return n < 10000 ? static_cast<unsigned>(n) : 0;
}
unsigned lengthOf(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 4) return 0;
  return static_cast<unsigned>(std::stoul(s));
}

// [tool.NAME] of a pyproject.toml's text, read with toml++; a file that is not TOML says nothing
// (black would refuse to run on it: the rewrite keeps black's defaults).
std::optional<nlohmann::json> toolTable(const std::string& text, const std::string& tool) {
  try {
    if (auto t = support::tomlTable(text, "pyproject.toml", {"tool", tool})) return t->value;
  } catch (const support::TomlError&) {
  }
  return std::nullopt;
}

}  // namespace

unsigned lineLengthIn(const std::string& text, bool toml) {
  if (!toml) {
    auto found = settings(text);
    for (const char* key : {"max-line-length", "max_line_length"})
      if (unsigned n = lengthOf(found["flake8"][key])) return n;
    return 0;
  }
  for (const char* tool : {"black", "ruff"})
    if (std::optional<nlohmann::json> t = toolTable(text, tool))
      for (const char* key : {"line-length", "line_length"})
        if (t->contains(key))
          if (unsigned n = lengthOf((*t)[key])) return n;
  return 0;
}

unsigned lineLength(const std::string& root, const std::string& file) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(root) / fs::path(file).parent_path();
  const std::string top = normal(root);
  for (;;) {
    for (const char* name : {"pyproject.toml", "setup.cfg"})
      if (auto text = support::readFile((dir / name).string()))
        if (unsigned n = lineLengthIn(*text, std::string(name) == "pyproject.toml")) return n;
    if (normal(dir) == top || normal(dir).size() <= top.size()) break;
    dir = fs::path(normal(dir)).parent_path();
  }
  return kDefaultLineLength;
}

bool magicTrailingCommaIn(const std::string& text) {
  if (std::optional<nlohmann::json> black = toolTable(text, "black"))
    for (const char* key : {"skip-magic-trailing-comma", "skip_magic_trailing_comma"})
      if (black->contains(key) && (*black)[key] == true) return false;
  return true;
}

bool magicTrailingComma(const std::string& root, const std::string& file) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(root) / fs::path(file).parent_path();
  const std::string top = normal(root);
  for (;;) {
    if (auto text = support::readFile((dir / "pyproject.toml").string()))
      return magicTrailingCommaIn(*text);
    if (normal(dir) == top || normal(dir).size() <= top.size()) break;
    dir = fs::path(normal(dir)).parent_path();
  }
  return true;
}

}  // namespace gridlock::rewrite::py
