#include "cache/entry.h"

#include "cache/packed.h"
#include "facts/binary_codec.h"
#include "facts/facts_codec.h"
#include "support/file_io.h"

#include <type_traits>

namespace gridlock::cache {

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, Stamp>
void fields(V&& v, T& x) {
  v("size", x.size);
  v("mtime_ns", x.mtimeNs);
  v("device", x.device);
  v("inode", x.inode);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, ReadFile>
void fields(V&& v, T& x) {
  v("path", x.path);
  v("stamp", x.stamp);
  v("digest", x.digest);
  v("racy", x.racy);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, Missing>
void fields(V&& v, T& x) {
  v("dir", x.dir);
  v("dir_exists", x.dirExists);
  v("dir_stamp", x.dirStamp);
  v("racy", x.racy);
  v("names", x.names);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, Listing>
void fields(V&& v, T& x) {
  v("dir", x.dir);
  v("digest", x.digest);
}

template <typename V, typename T>
  requires std::is_same_v<std::remove_const_t<T>, Deps>
void fields(V&& v, T& x) {
  v("reads", x.reads);
  v("files", x.files);
  v("directories", x.directories);
  v("missing", x.missing);
  v("listings", x.listings);
}

namespace {

const std::string kMagic = "gridlock-cache-entry 4";
const std::string kBlobMagic = "gridlock-cache-blob 1";

std::string blobDigest(const std::string& build, std::string_view raw) {
  std::string keyed = build + "\n";
  keyed.append(raw);
  return support::md5Hex(keyed);
}

std::vector<std::string> readDigests(codec::bin::Reader& r) {
  std::vector<std::string> out(r.count());
  for (auto& d : out) d = r.bytes();
  return out;
}

// The header lines of an entry, and the packed rest; nothing when there are not two lines.
std::optional<std::string_view> afterHeader(std::string_view bytes, std::string (&lines)[2]) {
  for (auto& line : lines) {
    size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    line = std::string(bytes.substr(0, nl));
    bytes.remove_prefix(nl + 1);
  }
  return bytes;
}

}  // namespace

std::string encodeEntry(const Entry& e, const std::string& build) {
  codec::bin::Writer w;
  // The blobs first: eviction reads no further.
  w.varint(e.byFile.files.size());
  for (const auto& f : e.byFile.files) w.bytes(f.digest);
  w.bytes(e.slot);
  w.bytes(e.rulesDigest);
  w.bytes(e.command);
  w.bytes(e.links);
  codec::bin::put(w, e.deps);
  facts::putTuFacts(w, e.facts);
  facts::putRuns(w, e.byFile.runs);
  return kMagic + "\n" + build + "\n" + pack(w.out);
}

Decoded decodeEntry(std::string_view bytes, const std::string& build) {
  Decoded d;
  auto corrupt = [&](std::string why) {
    d.status = Decoded::Status::Corrupt;
    d.problem = std::move(why);
    return d;
  };
  // Two header lines, then the packed payload.
  std::string lines[2];
  std::optional<std::string_view> packed = afterHeader(bytes, lines);
  if (!packed) return corrupt("truncated header");
  std::string_view rest = *packed;
  if (lines[0].rfind("gridlock-cache-entry ", 0) != 0) return corrupt("not a gridlock cache entry");
  if (lines[0] != kMagic || lines[1] != build) {
    d.status = Decoded::Status::Foreign;
    d.problem = lines[0] != kMagic ? "entry format " + lines[0] : "written by " + lines[1];
    return d;
  }
  Unpacked u = unpack(rest);
  if (!u.ok) return corrupt(u.problem);
  try {
    codec::bin::Reader r(u.raw, "entry");
    for (auto& digest : readDigests(r))
      d.entry.byFile.files.push_back({std::move(digest), nullptr});
    d.entry.slot = r.bytes();
    d.entry.rulesDigest = r.bytes();
    d.entry.command = r.bytes();
    d.entry.links = r.bytes();
    codec::bin::get(r, d.entry.deps);
    facts::getTuFacts(r, d.entry.facts);
    facts::getRuns(r, d.entry.byFile.runs);
    if (!r.atEnd()) r.fail("trailing bytes");
  } catch (const std::exception& e) {
    return corrupt(e.what());
  }
  d.status = Decoded::Status::Ok;
  return d;
}

std::optional<std::vector<std::string>> blobsOfEntry(std::string_view bytes) {
  std::string lines[2];
  std::optional<std::string_view> packed = afterHeader(bytes, lines);
  if (!packed || lines[0] != kMagic) return std::nullopt;
  Unpacked u = unpack(*packed);
  if (!u.ok) return std::nullopt;
  try {
    codec::bin::Reader r(u.raw, "entry");
    return readDigests(r);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Blob encodeBlob(const facts::TuFacts& fileFacts, const std::string& build) {
  std::string raw = facts::encodeTuFactsBinary(fileFacts);
  return {blobDigest(build, raw), kBlobMagic + "\n" + pack(raw)};
}

DecodedBlob decodeBlob(std::string_view bytes, const std::string& build,
                       const std::string& digest) {
  DecodedBlob d;
  size_t nl = bytes.find('\n');
  if (nl == std::string_view::npos) {
    d.problem = "truncated header";
    return d;
  }
  if (bytes.substr(0, nl) != kBlobMagic) {
    d.problem = "not a gridlock cache blob";
    return d;
  }
  Unpacked u = unpack(bytes.substr(nl + 1));
  if (!u.ok) {
    d.problem = u.problem;
    return d;
  }
  if (blobDigest(build, u.raw) != digest) {
    d.problem = "digest mismatch";
    return d;
  }
  try {
    d.facts = std::make_shared<const facts::TuFacts>(facts::decodeTuFactsBinary(u.raw));
  } catch (const std::exception& e) {
    d.problem = e.what();
  }
  return d;
}

}  // namespace gridlock::cache
