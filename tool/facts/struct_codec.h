// JSON for plain structs whose fields are listed once, for both directions, by a function
// `fields(visitor, object)` found by argument-dependent lookup in the struct's namespace:
//
//   template <typename V, typename T> requires std::is_same_v<std::remove_const_t<T>, Scope>
//   void fields(V&& v, T& x) { v("include", x.include); v("exclude", x.exclude); }
//
// Enums are written by their spellings (kinds.h), Shape as "optional:pointer". Reading checks
// every type and names the JSON pointer of what is wrong. The facts codec and the rule-pack
// codec are both built on this, so the cache and the shard files agree on one form.
#pragma once

#include "facts/kinds.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gridlock::codec {

using json = nlohmann::json;

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <typename T>
constexpr bool hasFields = requires(T& x) { fields([](const char*, auto&) {}, x); };

template <typename K>
std::string keyString(const K& k) {
  if constexpr (std::is_enum_v<K>)
    return facts::str(k);
  else
    return k;
}

// ---- writing. Every overload is declared before any is defined: they call each other for
// nested types (a vector of pairs), and a template only sees what was declared before it.

template <typename T>
json encode(const T& x);
template <typename T>
json encodeValue(const T& x);
template <typename T>
json encodeValue(const std::optional<T>& x);
template <typename T>
json encodeValue(const std::vector<T>& xs);
template <typename A, typename B>
json encodeValue(const std::pair<A, B>& p);
template <typename K, typename V>
json encodeValue(const std::map<K, V>& m);

template <typename T>
json encodeValue(const T& x) {
  if constexpr (std::is_enum_v<T> || std::is_same_v<T, facts::Shape>)
    return facts::str(x);
  else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>)
    return x;
  else
    return encode(x);
}

template <typename T>
json encodeValue(const std::optional<T>& x) {
  return x ? encodeValue(*x) : json(nullptr);
}

template <typename T>
json encodeValue(const std::vector<T>& xs) {
  json a = json::array();
  for (const auto& x : xs) a.push_back(encodeValue(x));
  return a;
}

template <typename A, typename B>
json encodeValue(const std::pair<A, B>& p) {
  return json::array({encodeValue(p.first), encodeValue(p.second)});
}

template <typename K, typename V>
json encodeValue(const std::map<K, V>& m) {
  json o = json::object();
  for (const auto& [k, v] : m) o[keyString(k)] = encodeValue(v);
  return o;
}

template <typename T>
json encode(const T& x) {
  static_assert(hasFields<const T>, "codec::encode: a struct without a field list");
  json o = json::object();
  fields([&](const char* key, const auto& field) { o[key] = encodeValue(field); }, x);
  return o;
}

// ---- reading. `what` names the document ("facts"), `at` the JSON pointer of the value.

struct Place {
  const char* what;
  std::string at;
  Place operator/(const std::string& key) const { return {what, at + "/" + key}; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw Error(std::string(what) + ": " + (at.empty() ? std::string("/") : at) + ": " + problem);
  }
};

template <typename T>
void decode(const json& j, T& x, const Place& at);
template <typename T>
void decodeValue(const json& j, T& x, const Place& at);
template <typename T>
void decodeValue(const json& j, std::optional<T>& x, const Place& at);
template <typename T>
void decodeValue(const json& j, std::vector<T>& xs, const Place& at);
template <typename A, typename B>
void decodeValue(const json& j, std::pair<A, B>& p, const Place& at);
template <typename K, typename V>
void decodeValue(const json& j, std::map<K, V>& m, const Place& at);

template <typename E>
E decodeEnum(const std::string& text, const Place& at) {
  std::optional<E> v = facts::parse<E>(text);
  if (!v) at.fail("unknown value \"" + text + "\"");
  return *v;
}

template <typename T>
void decodeValue(const json& j, T& x, const Place& at) {
  if constexpr (std::is_enum_v<T>) {
    if (!j.is_string()) at.fail("expected a string");
    x = decodeEnum<T>(j.get<std::string>(), at);
  } else if constexpr (std::is_same_v<T, facts::Shape>) {
    if (!j.is_string()) at.fail("expected a string");
    std::string s = j.get<std::string>();
    const std::string prefix = "optional:";
    x.optional = s.rfind(prefix, 0) == 0;
    std::optional<facts::Holder> h = facts::parse<facts::Holder>(
        x.optional ? std::string_view(s).substr(prefix.size()) : std::string_view(s));
    if (!h) at.fail("unknown value \"" + s + "\"");
    x.holder = *h;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) at.fail("expected a string");
    x = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) at.fail("expected a boolean");
    x = j.get<bool>();
  } else if constexpr (std::is_unsigned_v<T>) {
    if (!j.is_number_unsigned()) at.fail("expected an unsigned number");
    x = j.get<T>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!j.is_number_integer()) at.fail("expected a number");
    x = j.get<T>();
  } else {
    decode(j, x, at);
  }
}

template <typename T>
void decodeValue(const json& j, std::optional<T>& x, const Place& at) {
  if (j.is_null()) {
    x.reset();
    return;
  }
  x.emplace();
  decodeValue(j, *x, at);
}

template <typename T>
void decodeValue(const json& j, std::vector<T>& xs, const Place& at) {
  if (!j.is_array()) at.fail("expected an array");
  xs.clear();
  xs.resize(j.size());
  for (size_t i = 0; i < j.size(); ++i) decodeValue(j[i], xs[i], at / std::to_string(i));
}

template <typename A, typename B>
void decodeValue(const json& j, std::pair<A, B>& p, const Place& at) {
  if (!j.is_array() || j.size() != 2) at.fail("expected a pair");
  decodeValue(j[0], p.first, at / "0");
  decodeValue(j[1], p.second, at / "1");
}

template <typename K, typename V>
void decodeValue(const json& j, std::map<K, V>& m, const Place& at) {
  if (!j.is_object()) at.fail("expected an object");
  m.clear();
  for (const auto& [k, v] : j.items()) {
    Place here = at / k;
    if constexpr (std::is_enum_v<K>)
      decodeValue(v, m[decodeEnum<K>(k, here)], here);
    else
      decodeValue(v, m[k], here);
  }
}

template <typename T>
void decode(const json& j, T& x, const Place& at) {
  static_assert(hasFields<T>, "codec::decode: a struct without a field list");
  if (!j.is_object()) at.fail("expected an object");
  fields(
      [&](const char* key, auto& field) {
        auto it = j.find(key);
        if (it == j.end()) at.fail(std::string("missing \"") + key + "\"");
        decodeValue(*it, field, at / key);
      },
      x);
}

// A whole document of type T from JSON; throws Error("what: /pointer: problem").
template <typename T>
T decodeDocument(const json& j, const char* what) {
  T x{};
  decode(j, x, Place{what, ""});
  return x;
}

}  // namespace gridlock::codec
