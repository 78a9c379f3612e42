#include "pyrewrite/line_length.h"

#include "support/file_io.h"

#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

namespace gridlock::pyrewrite {
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

// section -> key -> value, of a settings file's `key = value` lines (comments dropped).
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

}  // namespace

unsigned lineLengthIn(const std::string& text, bool toml) {
  auto found = settings(text);
  auto number = [](const std::string& v) -> unsigned {
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 4)
      return 0;
    return static_cast<unsigned>(std::stoul(v));
  };
  std::vector<std::pair<std::string, std::string>> keys =
      toml ? std::vector<std::pair<std::string, std::string>>{{"tool.black", "line-length"},
                                                              {"tool.black", "line_length"},
                                                              {"tool.ruff", "line-length"},
                                                              {"tool.ruff", "line_length"}}
           : std::vector<std::pair<std::string, std::string>>{{"flake8", "max-line-length"},
                                                              {"flake8", "max_line_length"}};
  for (const auto& [s, k] : keys)
    if (unsigned n = number(found[s][k])) return n;
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
  auto found = settings(text);
  for (const char* key : {"skip-magic-trailing-comma", "skip_magic_trailing_comma"})
    if (found["tool.black"][key] == "true") return false;
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

}  // namespace gridlock::pyrewrite
