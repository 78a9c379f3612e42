// One cache entry as bytes: a text header that names the format and the gridlock build that
// wrote it, then the compressed binary form (facts/binary_codec.h) of the rest of its key, its
// dependencies and its facts, checked by its length and MD5. Any damage reads as Corrupt,
// another build's entry as Foreign; neither is ever taken for facts.
#pragma once

#include "cache/deps.h"
#include "facts/facts.h"

#include <string>
#include <string_view>

namespace gridlock::cache {

struct Entry {
  std::string slot;         // key.h slotOf(), repeated inside against a clash of slots
  std::string rulesDigest;  // rules_codec.h digestOf()
  std::string command;      // key.h commandKey()
  std::string links;        // key.h linksKey()
  Deps deps;
  facts::TuFacts facts;
};

std::string encodeEntry(const Entry& e, const std::string& build);

struct Decoded {
  enum class Status { Ok, Corrupt, Foreign } status = Status::Corrupt;
  std::string problem;  // what is wrong, for Corrupt and Foreign
  Entry entry;
};
Decoded decodeEntry(std::string_view bytes, const std::string& build);

}  // namespace gridlock::cache
