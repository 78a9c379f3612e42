// One cache entry as bytes: a text header that names the format and the gridlock build that
// wrote it, then the compressed binary form (facts/binary_codec.h) of its files' digests, the
// rest of its key, its dependencies and the facts that are the unit's own, checked by its
// length and MD5. The facts located in each file are blobs of their own, stored once under
// their digest however many entries name them (facts/by_file.h). Any damage reads as Corrupt,
// another build's entry or blob as Foreign; neither is ever taken for facts.
#pragma once

#include "cache/deps.h"
#include "facts/facts.h"

#include "facts/by_file.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::cache {

struct Entry {
  std::string slot;         // key.h slotOf(), repeated inside against a clash of slots
  std::string rulesDigest;  // rules_codec.h digestOf()
  std::string command;      // key.h commandKey()
  std::string links;        // key.h linksKey()
  // Its dependencies, stored as one blob per directory (most are the same in every unit):
  // decoding gives only their digests (`deps` empty), encoding writes only the digests.
  Deps deps;
  std::vector<std::string> depsDigests;  // of depsBlobs(deps)
  facts::TuFacts facts;                  // the unit's own facts (by_file.h UnitFacts)
  // Its files' facts: every digest set; decoding leaves their facts unloaded (null).
  facts::ByFile byFile;
};

std::string encodeEntry(const Entry& e, const std::string& build);

struct Decoded {
  enum class Status { Ok, Corrupt, Foreign } status = Status::Corrupt;
  std::string problem;  // what is wrong, for Corrupt and Foreign
  Entry entry;
};
Decoded decodeEntry(std::string_view bytes, const std::string& build);

// The digests of the blobs an entry of any gridlock build names (what eviction keeps), or
// nothing when the bytes are no entry of this format.
std::optional<std::vector<std::string>> blobsOfEntry(std::string_view bytes);

// One file's facts as a blob: its digest (the MD5 of the build and the binary facts, so
// equal facts of one build are one blob) and its bytes (a header line, then packed.h).
struct Blob {
  std::string digest;
  std::string bytes;
};
Blob encodeBlob(const facts::TuFacts& fileFacts, const std::string& build);

// The dependencies as blobs, one per directory they are in.
std::vector<Blob> depsBlobs(const Deps& deps, const std::string& build);
struct DecodedDeps {
  std::shared_ptr<const Deps> deps;  // null when damaged
  std::string problem;
};
DecodedDeps decodeDepsBlob(std::string_view bytes, const std::string& build,
                           const std::string& digest);
// The blobs' dependencies as one, each list in the order deps.h gives it.
Deps joinDeps(const std::vector<std::shared_ptr<const Deps>>& parts);

struct DecodedBlob {
  std::shared_ptr<const facts::TuFacts> facts;  // null when damaged
  std::string problem;
};
// The facts of the blob stored as `digest`; a blob whose bytes do not give that digest is
// damaged.
DecodedBlob decodeBlob(std::string_view bytes, const std::string& build, const std::string& digest);

}  // namespace gridlock::cache
