#include "analysis/baseline.h"

#include "analysis/summary.h"

#include <nlohmann/json.hpp>

namespace gridlock::analysis {

std::string BaselineKey::str() const { return file + " | " + (enclosing.empty() ? "<file scope>" : enclosing) + " | " + name; }

Baseline baselineOf(const index::Inventory& inv) {
  Baseline b;
  for (const auto& r : inv.reads)
    if (counts(r)) ++b[{r.file, r.enclosing, r.name}];
  return b;
}

std::string serializeBaseline(const Baseline& b) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  size_t total = 0;
  for (const auto& [k, n] : b) {
    entries.push_back({{"file", k.file}, {"enclosing", k.enclosing}, {"name", k.name}, {"count", n}});
    total += n;
  }
  nlohmann::ordered_json doc = {{"gridlock_baseline", 1}, {"total", total}, {"entries", entries}};
  return doc.dump(2) + "\n";
}

Baseline parseBaseline(const std::string& text, const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw BaselineError(path + ": invalid JSON: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("entries") || !doc["entries"].is_array())
    throw BaselineError(path + ": not a gridlock baseline (expected an object with \"entries\")");
  Baseline b;
  const auto& entries = doc["entries"];
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    std::string at = path + ": /entries/" + std::to_string(i);
    if (!e.is_object()) throw BaselineError(at + ": expected an object");
    for (const char* key : {"file", "enclosing", "name"})
      if (!e.contains(key) || !e[key].is_string())
        throw BaselineError(at + ": \"" + key + "\" must be a string");
    if (!e.contains("count") || !e["count"].is_number_unsigned() || e["count"].get<size_t>() == 0)
      throw BaselineError(at + ": \"count\" must be a positive integer");
    BaselineKey k{e["file"], e["enclosing"], e["name"]};
    if (!b.emplace(k, e["count"].get<size_t>()).second)
      throw BaselineError(at + ": duplicate entry " + k.str());
  }
  return b;
}

GateResult compare(const Baseline& baseline, const Baseline& current) {
  GateResult g;
  for (const auto& [k, n] : current) {
    auto it = baseline.find(k);
    if (it == baseline.end())
      g.added.push_back({k, 0, n});
    else if (n > it->second)
      g.rose.push_back({k, it->second, n});
    else if (n < it->second)
      g.fell.push_back({k, it->second, n});
  }
  for (const auto& [k, n] : baseline)
    if (!current.count(k)) g.fell.push_back({k, n, 0});
  std::sort(g.fell.begin(), g.fell.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  return g;
}

}  // namespace gridlock::analysis
