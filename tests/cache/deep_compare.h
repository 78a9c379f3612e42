// Field-by-field comparison of plain aggregates (facts, rule packs) through fields.h: which
// fields differ between two values, and which fields of a sample still hold their defaults.
// Codec tests use both: a hand-made sample with every field set must come back equal.
#pragma once

#include "cache/fields.h"

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gridlock::test {

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsMap : std::false_type {};
template <typename K, typename V>
struct IsMap<std::map<K, V>> : std::true_type {};
template <typename T>
struct IsPair : std::false_type {};
template <typename A, typename B>
struct IsPair<std::pair<A, B>> : std::true_type {};

// A map key in a path: strings as they are, enums by their number.
template <typename K>
std::string keyText(const K& k) {
  if constexpr (std::is_enum_v<K>)
    return std::to_string(static_cast<long>(k));
  else
    return k;
}

template <typename T>
constexpr bool isScalar =
    std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::string>;

// Appends to `out` the path of every field where `a` and `b` differ.
template <typename T>
void differences(const T& a, const T& b, const std::string& path, std::vector<std::string>& out) {
  if constexpr (isScalar<T>) {
    if (!(a == b)) out.push_back(path);
  } else if constexpr (IsVector<T>::value) {
    if (a.size() != b.size()) return out.push_back(path + ".size");
    for (size_t i = 0; i < a.size(); ++i)
      differences(a[i], b[i], path + "[" + std::to_string(i) + "]", out);
  } else if constexpr (IsOptional<T>::value) {
    if (a.has_value() != b.has_value()) return out.push_back(path + ".has_value");
    if (a) differences(*a, *b, path + ".value", out);
  } else if constexpr (IsMap<T>::value) {
    if (a.size() != b.size()) return out.push_back(path + ".size");
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
      if (!(ia->first == ib->first)) return out.push_back(path + ".keys");
      differences(ia->second, ib->second, path + "[" + keyText(ia->first) + "]", out);
    }
  } else if constexpr (IsPair<T>::value) {
    differences(a.first, b.first, path + ".first", out);
    differences(a.second, b.second, path + ".second", out);
  } else {
    static_assert(std::is_aggregate_v<T>, "differences: not a plain aggregate");
    auto fa = fieldsOf(a);
    auto fb = fieldsOf(b);
    [&]<size_t... I>(std::index_sequence<I...>) {
      (differences(std::get<I>(fa), std::get<I>(fb), path + ".#" + std::to_string(I), out), ...);
    }(std::make_index_sequence<std::tuple_size_v<decltype(fa)>>());
  }
}

template <typename T>
std::vector<std::string> differences(const T& a, const T& b) {
  std::vector<std::string> out;
  differences(a, b, "", out);
  return out;
}

// Appends the path of every field of `x` that still holds its default value: an empty
// container, an empty optional, the value a default-constructed struct has. Containers and
// optionals are followed into their first element, so nested structs are checked too.
template <typename T>
void defaultsLeft(const T& x, const std::string& path, std::vector<std::string>& out) {
  if constexpr (isScalar<T>) {
    if (x == T{}) out.push_back(path);
  } else if constexpr (IsVector<T>::value || IsMap<T>::value) {
    if (x.empty()) return out.push_back(path);
    if constexpr (IsVector<T>::value)
      defaultsLeft(x.front(), path + "[0]", out);
    else
      defaultsLeft(x.begin()->second, path + "[" + keyText(x.begin()->first) + "]", out);
  } else if constexpr (IsOptional<T>::value) {
    // A value present is what differs from the default, whatever the value.
    if (!x) return out.push_back(path);
    if constexpr (!isScalar<typename T::value_type>) defaultsLeft(*x, path + ".value", out);
  } else if constexpr (IsPair<T>::value) {
    defaultsLeft(x.first, path + ".first", out);
    defaultsLeft(x.second, path + ".second", out);
  } else {
    static_assert(std::is_aggregate_v<T>, "defaultsLeft: not a plain aggregate");
    const T none{};
    auto fx = fieldsOf(x);
    auto fd = fieldsOf(none);
    [&]<size_t... I>(std::index_sequence<I...>) {
      auto one = [&](const auto& field, const auto& fallback, size_t i) {
        using F = std::remove_cvref_t<decltype(field)>;
        std::string p = path + ".#" + std::to_string(i);
        if constexpr (isScalar<F>) {
          if (field == fallback) out.push_back(p);
        } else {
          defaultsLeft(field, p, out);
        }
      };
      (one(std::get<I>(fx), std::get<I>(fd), I), ...);
    }(std::make_index_sequence<std::tuple_size_v<decltype(fx)>>());
  }
}

template <typename T>
std::vector<std::string> defaultsLeft(const T& x) {
  std::vector<std::string> out;
  defaultsLeft(x, "", out);
  return out;
}

}  // namespace gridlock::test
