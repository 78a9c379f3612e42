// A compact binary form of the same plain structs struct_codec.h writes as JSON, through the
// same field lists (`fields(visitor, object)`): fields in their listed order without keys,
// numbers as varints, strings and lists with their lengths, enums by their place in their
// spelling table (kinds.h). It is what the facts cache holds: reading it builds the structs
// directly, without a JSON document in between, which is most of what a warm scan costs.
//
// The form has no version of its own and no keys: only the gridlock build that wrote it may
// read it (cache entries are stamped with that build). Reading checks every length and enum
// against the bytes it has, so damaged input is an Error, never a crash or a huge allocation.
#pragma once

#include "facts/kinds.h"
#include "facts/struct_codec.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gridlock::codec::bin {

class Writer {
 public:
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  }
  void bytes(std::string_view s) {
    varint(s.size());
    out.append(s);
  }
  std::string out;
};

class Reader {
 public:
  Reader(std::string_view in, const char* what) : in_(in), what_(what) {}
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) fail("truncated");
      auto b = static_cast<std::uint8_t>(in_[pos_++]);
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("a number longer than 64 bits");
  }
  std::string_view bytes() {
    std::uint64_t n = varint();
    if (n > in_.size() - pos_) fail("truncated");
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  // A count of items, each of which takes at least one byte: never more than the bytes left.
  size_t count() {
    std::uint64_t n = varint();
    if (n > in_.size() - pos_) fail("a count past the end");
    return static_cast<size_t>(n);
  }
  bool atEnd() const { return pos_ == in_.size(); }
  [[noreturn]] void fail(const std::string& problem) const {
    throw Error(std::string(what_) + ": byte " + std::to_string(pos_) + ": " + problem);
  }

 private:
  std::string_view in_;
  const char* what_;
  size_t pos_ = 0;
};

template <typename E>
constexpr size_t spellingCount() {
  return sizeof(facts::Spellings<E>::table) / sizeof(facts::Spellings<E>::table[0]);
}

template <typename E>
std::uint64_t enumIndex(E e) {
  for (size_t i = 0; i < spellingCount<E>(); ++i)
    if (facts::Spellings<E>::table[i].first == e) return i;
  return spellingCount<E>();  // not in the table: read back as an error
}

template <typename E>
E enumAt(Reader& r) {
  std::uint64_t i = r.varint();
  if (i >= spellingCount<E>()) r.fail("an enum value out of range");
  return facts::Spellings<E>::table[i].first;
}

// ---- writing (every overload declared before any is defined: they call each other).

template <typename T>
void put(Writer& w, const T& x);
template <typename T>
void put(Writer& w, const std::optional<T>& x);
template <typename T>
void put(Writer& w, const std::vector<T>& xs);
template <typename A, typename B>
void put(Writer& w, const std::pair<A, B>& p);
template <typename K, typename V>
void put(Writer& w, const std::map<K, V>& m);

template <typename T>
void put(Writer& w, const T& x) {
  if constexpr (std::is_enum_v<T>) {
    w.varint(enumIndex(x));
  } else if constexpr (std::is_same_v<T, facts::Shape>) {
    w.varint(x.optional ? 1 : 0);
    w.varint(enumIndex(x.holder));
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.bytes(x);
  } else if constexpr (std::is_same_v<T, bool>) {
    w.varint(x ? 1 : 0);
  } else if constexpr (std::is_unsigned_v<T>) {
    w.varint(x);
  } else if constexpr (std::is_integral_v<T>) {
    auto v = static_cast<std::int64_t>(x);  // zigzag: small negatives stay short
    w.varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
  } else {
    static_assert(hasFields<const T>, "codec::bin::put: a struct without a field list");
    fields([&](const char*, const auto& field) { put(w, field); }, x);
  }
}

template <typename T>
void put(Writer& w, const std::optional<T>& x) {
  w.varint(x ? 1 : 0);
  if (x) put(w, *x);
}

template <typename T>
void put(Writer& w, const std::vector<T>& xs) {
  w.varint(xs.size());
  for (const auto& x : xs) put(w, x);
}

template <typename A, typename B>
void put(Writer& w, const std::pair<A, B>& p) {
  put(w, p.first);
  put(w, p.second);
}

template <typename K, typename V>
void put(Writer& w, const std::map<K, V>& m) {
  w.varint(m.size());
  for (const auto& [k, v] : m) {
    put(w, k);
    put(w, v);
  }
}

// ---- reading

template <typename T>
void get(Reader& r, T& x);
template <typename T>
void get(Reader& r, std::optional<T>& x);
template <typename T>
void get(Reader& r, std::vector<T>& xs);
template <typename A, typename B>
void get(Reader& r, std::pair<A, B>& p);
template <typename K, typename V>
void get(Reader& r, std::map<K, V>& m);

inline bool getBool(Reader& r) {
  std::uint64_t v = r.varint();
  if (v > 1) r.fail("a boolean other than 0 or 1");
  return v == 1;
}

template <typename T>
void get(Reader& r, T& x) {
  if constexpr (std::is_enum_v<T>) {
    x = enumAt<T>(r);
  } else if constexpr (std::is_same_v<T, facts::Shape>) {
    x.optional = getBool(r);
    x.holder = enumAt<facts::Holder>(r);
  } else if constexpr (std::is_same_v<T, std::string>) {
    x.assign(r.bytes());
  } else if constexpr (std::is_same_v<T, bool>) {
    x = getBool(r);
  } else if constexpr (std::is_unsigned_v<T>) {
    std::uint64_t v = r.varint();
    if (v > std::uint64_t(std::numeric_limits<T>::max())) r.fail("a number out of range");
    x = static_cast<T>(v);
  } else if constexpr (std::is_integral_v<T>) {
    std::uint64_t z = r.varint();
    auto v = static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
    if (v < std::int64_t(std::numeric_limits<T>::min()) ||
        v > std::int64_t(std::numeric_limits<T>::max()))
      r.fail("a number out of range");
    x = static_cast<T>(v);
  } else {
    static_assert(hasFields<T>, "codec::bin::get: a struct without a field list");
    fields([&](const char*, auto& field) { get(r, field); }, x);
  }
}

template <typename T>
void get(Reader& r, std::optional<T>& x) {
  if (!getBool(r)) {
    x.reset();
    return;
  }
  x.emplace();
  get(r, *x);
}

template <typename T>
void get(Reader& r, std::vector<T>& xs) {
  xs.clear();
  xs.resize(r.count());
  for (auto& x : xs) get(r, x);
}

template <typename A, typename B>
void get(Reader& r, std::pair<A, B>& p) {
  get(r, p.first);
  get(r, p.second);
}

template <typename K, typename V>
void get(Reader& r, std::map<K, V>& m) {
  m.clear();
  size_t n = r.count();
  for (size_t i = 0; i < n; ++i) {
    K k{};
    get(r, k);
    // Written in key order: the end is the hint, each insertion constant time (a key seen
    // twice reads into the value it has, as operator[] would).
    get(r, m.try_emplace(m.end(), std::move(k))->second);
  }
}

// ---- the layout: what a reader must agree on with the writer, as text ("{main_file:s,reads:
// [{file:s,...}],...}": field names and kinds in order, enums with their spellings), so files
// that cross machines (shard facts) can be refused when another gridlock wrote them in
// another layout, instead of being misread.

template <typename T>
void describe(std::string& out);

template <typename T>
struct Describe {
  static void to(std::string& out) {
    if constexpr (std::is_enum_v<T>) {
      out += "e(";
      for (const auto& [value, text] : facts::Spellings<T>::table) out += std::string(text) + "|";
      out += ")";
    } else if constexpr (std::is_same_v<T, facts::Shape>) {
      out += "shape(";
      Describe<facts::Holder>::to(out);
      out += ")";
    } else if constexpr (std::is_same_v<T, std::string>) {
      out += "s";
    } else if constexpr (std::is_same_v<T, bool>) {
      out += "b";
    } else if constexpr (std::is_unsigned_v<T>) {
      out += "u";
    } else if constexpr (std::is_integral_v<T>) {
      out += "i";
    } else {
      static_assert(hasFields<T>, "codec::bin::describe: a struct without a field list");
      out += "{";
      T x{};
      fields(
          [&](const char* key, auto& field) {
            out += key;
            out += ":";
            describe<std::remove_cvref_t<decltype(field)>>(out);
            out += ",";
          },
          x);
      out += "}";
    }
  }
};
template <typename T>
struct Describe<std::optional<T>> {
  static void to(std::string& out) {
    out += "?";
    describe<T>(out);
  }
};
template <typename T>
struct Describe<std::vector<T>> {
  static void to(std::string& out) {
    out += "[";
    describe<T>(out);
    out += "]";
  }
};
template <typename A, typename B>
struct Describe<std::pair<A, B>> {
  static void to(std::string& out) {
    out += "(";
    describe<A>(out);
    out += ",";
    describe<B>(out);
    out += ")";
  }
};
template <typename K, typename V>
struct Describe<std::map<K, V>> {
  static void to(std::string& out) {
    out += "<";
    describe<K>(out);
    out += ",";
    describe<V>(out);
    out += ">";
  }
};

template <typename T>
void describe(std::string& out) {
  Describe<T>::to(out);
}

}  // namespace gridlock::codec::bin
