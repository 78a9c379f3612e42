// The one codec of the facts: every field of a translation unit's facts to JSON and back,
// enums by their spellings (kinds.h), and to a compact binary form through the same field
// lists. The shard facts files hold the JSON form (as CBOR), the facts cache the binary one,
// so a TU whose facts are loaded reports exactly what a parse reports.
#pragma once

#include "facts/facts.h"

#include "facts/binary_codec.h"
#include "facts/struct_codec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace gridlock::facts {

// Malformed facts: a missing key, a value of the wrong type, an unknown spelling.
using CodecError = codec::Error;

nlohmann::json toJson(const TuFacts& tu);
// Throws CodecError naming what is wrong.
TuFacts tuFactsFromJson(const nlohmann::json& j);

// The same as CBOR bytes, the form shard facts files hold.
std::string encodeTuFacts(const TuFacts& tu);
TuFacts decodeTuFacts(std::string_view cbor);

// The compact binary form (binary_codec.h), the form the cache holds: read back only by the
// gridlock build that wrote it. Decoding throws CodecError for damaged or trailing bytes.
void putTuFacts(codec::bin::Writer& w, const TuFacts& tu);
void getTuFacts(codec::bin::Reader& r, TuFacts& tu);
std::string encodeTuFactsBinary(const TuFacts& tu);
TuFacts decodeTuFactsBinary(std::string_view bytes);

}  // namespace gridlock::facts
