#include "support/toml_table.h"

// Header-only (toml++'s default), so that nothing links libtomlplusplus.
#include <toml++/toml.h>

namespace gridlock::support {
namespace {

std::string at(const std::string& path, const toml::source_region& where) {
  return path + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
}

// JSON pointer escaping of one key (RFC 6901).
std::string escaped(std::string_view key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

nlohmann::json convert(const toml::node& node, const std::string& pointer, TomlTable& out) {
  if (const toml::table* t = node.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [key, value] : *t) {
      std::string p = pointer + "/" + escaped(key.str());
      out.where[p] = {key.source().begin.line, key.source().begin.column};
      j[std::string(key.str())] = convert(value, p, out);
    }
    return j;
  }
  if (const toml::array* a = node.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (size_t i = 0; i < a->size(); ++i) {
      std::string p = pointer + "/" + std::to_string(i);
      const toml::node& element = *a->get(i);
      out.where[p] = {element.source().begin.line, element.source().begin.column};
      j.push_back(convert(element, p, out));
    }
    return j;
  }
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* b = node.as_boolean()) return b->get();
  if (const auto* f = node.as_floating_point()) return f->get();
  if (const auto* i = node.as_integer()) {
    int64_t v = i->get();
    return v < 0 ? nlohmann::json(v) : nlohmann::json(static_cast<uint64_t>(v));
  }
  return nullptr;  // a date, a time, a date-time
}

}  // namespace

std::optional<TomlTable> tomlTable(const std::string& text, const std::string& path,
                                   const std::vector<std::string>& keys) {
  toml::table doc;
  try {
    doc = toml::parse(std::string_view(text), std::string_view(path));
  } catch (const toml::parse_error& e) {
    throw TomlError(at(path, e.source()) + ": invalid TOML: " + std::string(e.description()));
  }
  const toml::node* node = &doc;
  std::string dotted;
  for (const std::string& key : keys) {
    const toml::node* next = node->as_table()->get(key);
    if (!next) return std::nullopt;
    dotted += (dotted.empty() ? "" : ".") + key;
    if (!next->is_table())
      throw TomlError(at(path, next->source()) + ": " + dotted + ": expected a table");
    node = next;
  }
  TomlTable out;
  out.value = convert(*node, "", out);
  return out;
}

}  // namespace gridlock::support
