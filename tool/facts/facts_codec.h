// The one codec of the facts: every field of a translation unit's facts to JSON and back,
// enums by their spellings (kinds.h). The facts cache and the shard facts files hold facts in
// this form (as CBOR), so a TU whose facts are loaded reports exactly what a parse reports.
#pragma once

#include "facts/facts.h"

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

// The same as CBOR bytes, the form files hold.
std::string encodeTuFacts(const TuFacts& tu);
TuFacts decodeTuFacts(std::string_view cbor);

}  // namespace gridlock::facts
