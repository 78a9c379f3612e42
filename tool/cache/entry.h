// One cache entry as bytes: a text header that names the format and the gridlock build that
// wrote it, then the compressed binary form (facts/binary_codec.h) of the lists that name its
// blobs, the rest of its key and the facts that are the unit's own, checked by its length and
// MD5. The facts located in each file are blobs of their own, as are its dependencies, stored
// once under their digest however many entries name them (facts/by_file.h). Any damage reads
// as Corrupt, another build's entry or blob as Foreign; neither is ever taken for facts.
#pragma once

#include "cache/deps.h"
#include "cache/store.h"
#include "facts/facts.h"

#include "facts/by_file.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gridlock::cache {

// A blob: its digest (the MD5 of the build, its kind and its raw bytes, so equal contents of
// one build are one blob) and what it holds. A file's facts are one (encodeBlob), a
// directory's dependencies one or more (depsBlobs), an entry's digests lists of them
// (nameBlobs).
struct Blob {
  std::string digest;
  std::string kind;  // "facts", "deps", "list"
  std::string raw;
  // The bytes stored: a header line naming the kind, then the raw bytes packed (packed.h) as
  // small as they go. Packed only when asked: most blobs a parse gives are stored already.
  std::string bytes() const;
};

struct Entry {
  std::string slot;         // key.h slotOf(), repeated inside against a clash of slots
  std::string rulesDigest;  // rules_codec.h digestOf()
  std::string command;      // key.h commandKey()
  std::string links;        // key.h linksKey()
  // Its dependencies, stored as blobs by directory (most are the same in every unit).
  Deps deps;
  std::vector<std::string> depsDigests;  // of depsBlobs(deps)
  facts::TuFacts facts;                  // the unit's own facts (by_file.h UnitFacts)
  // Its files' facts, each a blob named by its digest.
  facts::ByFile byFile;
  // What the entry itself names: list blobs (nameBlobs()) that hold the digests of its files'
  // facts blobs and of its dependency blobs. Decoding gives these lists, and no digest of
  // `byFile` or `depsDigests`: the cache reads them from the lists.
  std::vector<std::string> factsLists, depsLists;
};

// Cuts the entry's digests (those of byFile's files, then depsDigests) into list blobs, sets
// factsLists and depsLists to their digests and returns them, to be stored before the entry.
// A list ends at a digest listEndsAt() picks (about one in kDigestsPerList): units whose
// blobs are mostly the same (the same headers, the same system directories) name mostly the
// same lists, and a few lists each instead of hundreds of digests.
constexpr size_t kDigestsPerList = 16;
std::vector<Blob> nameBlobs(Entry& e, const std::string& build);
bool listEndsAt(std::string_view digest);

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
// The digests a list blob of any gridlock build holds, or nothing when the bytes are no list
// blob: what eviction keeps beside the lists an entry names.
std::optional<std::vector<std::string>> digestsOfList(std::string_view bytes);

struct DecodedList {
  std::shared_ptr<const std::vector<std::string>> digests;  // null when damaged
  std::string problem;
};
DecodedList decodeListBlob(std::string_view bytes, const std::string& build,
                           const std::string& digest);

Blob encodeBlob(const facts::TuFacts& fileFacts, const std::string& build);

// The dependencies as blobs, by directory: those of a directory of at most kWholeDirectory in
// one; a larger directory's in runs, each ended by a dependency endsDepsBlob() picks (about
// one in kDepsPerBlob), so that units reading different parts of it share most blobs.
constexpr size_t kWholeDirectory = 16;
constexpr size_t kDepsPerBlob = 8;
std::vector<Blob> depsBlobs(const Deps& deps, const std::string& build);
// Whether the dependency named `name` (a path; a missing one's directory, "/" and name; a
// listed directory) ends its blob, in a directory that is cut.
bool endsDepsBlob(std::string_view name);
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
