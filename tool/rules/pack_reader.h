// Reading one rule pack's JSON: each value read with the JSON path it is at, so every error
// names the file, the path and the problem (rule_pack.cpp, python_rules.cpp).
#pragma once

#include "facts/kinds.h"
#include "rules/rule_pack.h"
#include "support/nearest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace gridlock::rules {

// Reads a JSON value while remembering where it is, so every error names its JSON path.
class PackReader {
 public:
  explicit PackReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw RuleError(file_ + ": " + (where.empty() ? "/" : where) + ": " + what);
  }

  const nlohmann::json& object(const nlohmann::json& j, const std::string& where,
                               std::initializer_list<const char*> allowed) const {
    if (!j.is_object()) fail(where, "expected an object, got " + std::string(j.type_name()));
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool known =
          std::any_of(allowed.begin(), allowed.end(), [&](const char* k) { return it.key() == k; });
      if (!known) {
        std::string list;
        for (const char* k : allowed) list += std::string(list.empty() ? "" : ", ") + k;
        fail(where + "/" + it.key(),
             "unknown key (allowed: " + list + ")" +
                 support::didYouMean(it.key(), {allowed.begin(), allowed.end()}, '"'));
      }
    }
    return j;
  }

  std::string string(const nlohmann::json& j, const std::string& key, const std::string& where,
                     bool required) const {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) fail(where, "missing required key \"" + key + "\"");
      return {};
    }
    if (!it->is_string() || it->get<std::string>().empty())
      fail(where + "/" + key, "expected a non-empty string");
    return it->get<std::string>();
  }

  // The enum value spelled at `key`, one of `allowed`; `dflt` when the key is absent (required
  // when there is no default).
  template <typename E>
  E choice(const nlohmann::json& j, const std::string& key, const std::string& where,
           std::initializer_list<E> allowed, std::optional<E> dflt = std::nullopt) const {
    std::string v = string(j, key, where, !dflt);
    if (v.empty()) return *dflt;
    for (E ok : allowed)
      if (v == facts::spell(ok)) return ok;
    std::string list;
    for (E ok : allowed) list += (list.empty() ? "\"" : ", \"") + facts::str(ok) + "\"";
    fail(where + "/" + key, "expected one of " + list + "; got \"" + v + "\"");
  }

  bool boolean(const nlohmann::json& j, const std::string& key, const std::string& where,
               bool dflt) const {
    auto it = j.find(key);
    if (it == j.end()) return dflt;
    if (!it->is_boolean()) fail(where + "/" + key, "expected true or false");
    return it->get<bool>();
  }

  std::vector<std::string> strings(const nlohmann::json& j, const std::string& key,
                                   const std::string& where) const {
    std::vector<std::string> out;
    auto it = j.find(key);
    if (it == j.end()) return out;
    if (!it->is_array()) fail(where + "/" + key, "expected an array of strings");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string())
        fail(where + "/" + key + "/" + std::to_string(i), "expected a string");
      out.push_back((*it)[i].get<std::string>());
    }
    return out;
  }

  const nlohmann::json& array(const nlohmann::json& j, const std::string& key,
                              const std::string& where) const {
    static const nlohmann::json empty = nlohmann::json::array();
    auto it = j.find(key);
    if (it == j.end()) return empty;
    if (!it->is_array()) fail(where + "/" + key, "expected an array");
    return *it;
  }

  // An accessor entry's kind (accessor or shim), group (an accessor's is required) and yields
  // (a shim yields the whole collection), C++ or Python alike. A Python accessor may yield
  // module state (`state`), and needs no group then.
  void accessorKind(const nlohmann::json& a, const std::string& at, facts::ReadKind& kind,
                    std::string& group, facts::Yields& yields, bool python = false) const {
    using facts::ReadKind;
    using facts::Yields;
    kind = choice(a, "kind", at, {ReadKind::Accessor, ReadKind::Shim});
    group = string(a, "group", at, false);
    bool state = python && a.contains("yields") && a.at("yields") == "state";
    if (kind == ReadKind::Accessor && group.empty() && !state)
      fail(at, "an accessor needs \"group\" (the group it reads, e.g. \"tp\")");
    std::optional<Yields> dflt;
    if (kind == ReadKind::Shim) dflt = Yields::Collection;
    if (python)
      yields = choice(a, "yields", at,
                      {Yields::Group, Yields::Size, Yields::Rank, Yields::SrcRank,
                       Yields::Collection, Yields::Value, Yields::State},
                      dflt);
    else
      yields = choice(a, "yields", at,
                      {Yields::Group, Yields::Size, Yields::Rank, Yields::SrcRank,
                       Yields::Collection, Yields::Value},
                      dflt);
    if (kind == ReadKind::Shim && yields != Yields::Collection)
      fail(at + "/yields", "a shim yields a whole collection: expected \"collection\"");
  }

 private:
  std::string file_;
};

}  // namespace gridlock::rules
