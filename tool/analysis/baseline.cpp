#include "analysis/baseline.h"

#include "analysis/summary.h"
#include "index/path_text.h"
#include "support/nearest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>

namespace gridlock::analysis {

std::string BaselineKey::str() const {
  return index::textPath(file) + " | " + (enclosing.empty() ? "<file scope>" : enclosing) + " | " +
         name + (write ? " (write)" : "");
}

Baseline baselineOf(const index::Inventory& inv) {
  Baseline b;
  for (const auto& r : inv.reads)
    if (counts(r))
      ++b[{r.file, r.enclosing, r.name}];
    else if (countsWrite(r))
      ++b[{r.file, r.enclosing, r.name, true}];
  return b;
}

namespace {

nlohmann::ordered_json entriesOf(const Baseline& b, bool writes, size_t& total) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  total = 0;
  for (const auto& [k, n] : b) {
    if (k.write != writes) continue;
    entries.push_back({{"file", index::jsonPath(k.file)},
                       {"enclosing", k.enclosing},
                       {"name", k.name},
                       {"count", n}});
    total += n;
  }
  return entries;
}

nlohmann::json parseDocument(const std::string& text, const std::string& path) {
  try {
    // Raw bytes that are not UTF-8 (a name written by hand) become "%XX", as jsonPath
    // writes them, so that the file field reads back as those bytes.
    return nlohmann::json::parse(index::isUtf8(text) ? text : index::escapeNonUtf8(text));
  } catch (const nlohmann::json::parse_error& e) {
    throw BaselineError(path + ": invalid JSON: " + e.what());
  }
}

// The largest count a baseline holds: every integer up to 2^53 survives a reader that parses
// JSON numbers as doubles (JavaScript, jq), no larger one does.
constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;
constexpr int kFormat = 1;  // the "gridlock_baseline" this gridlock writes and reads

bool isCount(const nlohmann::json& v) {
  return v.is_number_unsigned() && v.get<std::uint64_t>() <= kMaxCount;
}

// A key `object` (at `at`) holds that is not one of `keys`: an error, as .gridlock.json's are,
// never a key silently ignored (a misspelt "entires" would be a baseline of nothing).
void refuseUnknownKeys(const nlohmann::json& object, const std::vector<std::string>& keys,
                       const std::string& at) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    std::string list;
    for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
    throw BaselineError(at + "/" + key + ": unknown key (expected " + list + ")" +
                        support::didYouMean(key, keys, '"'));
  }
}

// The format version, the top-level keys and the totals' type: what no reader may skip over.
void checkDocument(const nlohmann::json& doc, const std::string& path) {
  refuseUnknownKeys(
      doc, {"gridlock_baseline", "root", "total", "entries", "write_total", "write_entries"},
      path + ": ");
  if (doc.contains("gridlock_baseline")) {
    const auto& v = doc["gridlock_baseline"];
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0)
      throw BaselineError(path + ": /gridlock_baseline: expected the format version, 1");
    if (v.get<std::uint64_t>() > kFormat)
      throw BaselineError(path + ": /gridlock_baseline: format " + v.dump() +
                          " is newer than this gridlock reads (" + std::to_string(kFormat) +
                          "); a newer gridlock wrote it: update gridlock");
  }
  for (const char* total : {"total", "write_total"})
    if (doc.contains(total) && !isCount(doc[total]))
      throw BaselineError(path + ": /" + total +
                          ": expected an integer from 0 to 2^53 (9007199254740992)");
}

// The keys of one array of entries ("entries" or "write_entries") into `b`.
void parseEntries(const nlohmann::json& doc, const char* field, bool writes,
                  const std::string& path, Baseline& b) {
  const auto& entries = doc[field];
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    std::string at = path + ": /" + field + "/" + std::to_string(i);
    if (!e.is_object()) throw BaselineError(at + ": expected an object");
    refuseUnknownKeys(e, {"file", "enclosing", "name", "count"}, at);
    for (const char* key : {"file", "enclosing", "name"})
      if (!e.contains(key) || !e[key].is_string())
        throw BaselineError(at + ": \"" + key + "\" must be a string");
    if (!e.contains("count") || !isCount(e["count"]) || e["count"].get<size_t>() == 0)
      throw BaselineError(at +
                          ": \"count\" must be a positive integer of at most 2^53 "
                          "(9007199254740992)");
    BaselineKey k{index::fromJsonPath(e["file"].get<std::string>()), e["enclosing"], e["name"],
                  writes};
    if (!b.emplace(k, e["count"].get<size_t>()).second)
      throw BaselineError(at + ": duplicate entry " + k.str());
  }
}

}  // namespace

std::string serializeBaseline(const Baseline& b, const std::optional<std::string>& root,
                              bool writes) {
  nlohmann::ordered_json doc = {{"gridlock_baseline", kFormat}};
  if (root) doc["root"] = index::jsonPath(*root);
  size_t total = 0;
  nlohmann::ordered_json entries = entriesOf(b, false, total);
  doc["total"] = total;
  doc["entries"] = entries;
  if (writes) {
    entries = entriesOf(b, true, total);
    doc["write_total"] = total;
    doc["write_entries"] = entries;
  }
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Baseline parseBaseline(const std::string& text, const std::string& path) {
  nlohmann::json doc = parseDocument(text, path);
  if (!doc.is_object() || !doc.contains("entries") || !doc["entries"].is_array())
    throw BaselineError(path + ": not a gridlock baseline (expected an object with \"entries\")");
  checkDocument(doc, path);
  Baseline b;
  parseEntries(doc, "entries", false, path, b);
  if (doc.contains("write_entries")) {
    if (!doc["write_entries"].is_array())
      throw BaselineError(path + ": /write_entries: expected an array");
    parseEntries(doc, "write_entries", true, path, b);
  }
  return b;
}

bool baselineRecordsWrites(const std::string& text, const std::string& path) {
  nlohmann::json doc = parseDocument(text, path);
  return doc.is_object() && doc.contains("write_entries");
}

std::optional<std::string> parseBaselineRoot(const std::string& text, const std::string& path) {
  nlohmann::json doc = parseDocument(text, path);
  if (!doc.is_object() || !doc.contains("root")) return std::nullopt;
  const auto& root = doc["root"];
  if (!root.is_string() || root.get<std::string>().empty())
    throw BaselineError(path +
                        ": /root: expected a non-empty string (the root, relative to the "
                        "baseline's directory)");
  return index::fromJsonPath(root.get<std::string>());
}

GateResult compare(const Baseline& baseline, const Baseline& current, const Covers& covers) {
  GateResult g;
  auto lower = [&](const BaselineKey& k, size_t before, size_t after) {
    (!covers || covers(k) ? g.fell : g.kept).push_back({k, before, after});
  };
  for (const auto& [k, n] : current) {
    auto it = baseline.find(k);
    if (it == baseline.end())
      g.added.push_back({k, 0, n});
    else if (n > it->second)
      g.rose.push_back({k, it->second, n});
    else if (n < it->second)
      lower(k, it->second, n);
  }
  for (const auto& [k, n] : baseline)
    if (!current.count(k)) lower(k, n, 0);
  auto byKey = [](const auto& a, const auto& b) { return a.key < b.key; };
  std::sort(g.fell.begin(), g.fell.end(), byKey);
  std::sort(g.kept.begin(), g.kept.end(), byKey);
  return g;
}

Baseline updated(const Baseline& baseline, const Baseline& current, const Covers& covers) {
  Baseline out = current;
  if (covers)
    for (const auto& [k, n] : baseline)
      if (!covers(k) && out[k] < n) out[k] = n;  // a lower count here is no evidence
  return out;
}

size_t totalOf(const Baseline& b, bool writes) {
  size_t total = 0;
  for (const auto& [k, n] : b)
    if (k.write == writes) total += n;
  return total;
}

Baseline readsOf(const Baseline& b) {
  Baseline out;
  for (const auto& [k, n] : b)
    if (!k.write) out.emplace(k, n);
  return out;
}

}  // namespace gridlock::analysis
