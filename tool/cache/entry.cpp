#include "cache/entry.h"

#include "cache/packed.h"
#include "facts/binary_codec.h"
#include "facts/facts_codec.h"
#include "support/file_io.h"

#include <algorithm>
#include <map>
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

const std::string kMagic = "gridlock-cache-entry 5";
// Followed by the blob's kind: "facts" or "deps".
const std::string kBlobMagic = "gridlock-cache-blob 1 ";

std::string blobDigest(const std::string& build, const std::string& kind, std::string_view raw) {
  std::string keyed = build + "\n" + kind + "\n";
  keyed.append(raw);
  return support::md5Hex(keyed);
}

Blob blobOf(const std::string& kind, const std::string& raw, const std::string& build) {
  return {blobDigest(build, kind, raw), kBlobMagic + kind + "\n" + pack(raw)};
}

// The raw bytes of a blob of `kind` stored as `digest`, or the problem.
std::optional<std::string> unpackBlob(std::string_view bytes, const std::string& build,
                                      const std::string& kind, const std::string& digest,
                                      std::string& problem) {
  size_t nl = bytes.find('\n');
  if (nl == std::string_view::npos) {
    problem = "truncated header";
    return std::nullopt;
  }
  if (bytes.substr(0, nl) != kBlobMagic + kind) {
    problem = "not a gridlock cache blob of " + kind;
    return std::nullopt;
  }
  Unpacked u = unpack(bytes.substr(nl + 1));
  if (!u.ok) {
    problem = u.problem;
    return std::nullopt;
  }
  if (blobDigest(build, kind, u.raw) != digest) {
    problem = "digest mismatch";
    return std::nullopt;
  }
  return std::move(u.raw);
}

// The directory a dependency is in: what groups dependencies into blobs.
std::string dirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
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
  w.varint(e.byFile.files.size() + e.depsDigests.size());
  for (const auto& f : e.byFile.files) w.bytes(f.digest);
  for (const auto& d : e.depsDigests) w.bytes(d);
  w.varint(e.byFile.files.size());
  w.bytes(e.slot);
  w.bytes(e.rulesDigest);
  w.bytes(e.command);
  w.bytes(e.links);
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
    std::vector<std::string> digests = readDigests(r);
    size_t facts = r.varint();
    if (facts > digests.size()) r.fail("more facts blobs than blobs");
    for (size_t i = 0; i < digests.size(); ++i)
      if (i < facts)
        d.entry.byFile.files.push_back({std::move(digests[i]), nullptr});
      else
        d.entry.depsDigests.push_back(std::move(digests[i]));
    d.entry.slot = r.bytes();
    d.entry.rulesDigest = r.bytes();
    d.entry.command = r.bytes();
    d.entry.links = r.bytes();
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
  return blobOf("facts", facts::encodeTuFactsBinary(fileFacts), build);
}

DecodedBlob decodeBlob(std::string_view bytes, const std::string& build,
                       const std::string& digest) {
  DecodedBlob d;
  std::optional<std::string> raw = unpackBlob(bytes, build, "facts", digest, d.problem);
  if (!raw) return d;
  try {
    d.facts = std::make_shared<const facts::TuFacts>(facts::decodeTuFactsBinary(*raw));
  } catch (const std::exception& e) {
    d.problem = e.what();
  }
  return d;
}

std::vector<Blob> depsBlobs(const Deps& deps, const std::string& build) {
  std::map<std::string, Deps> byDir;
  for (const auto& f : deps.reads) byDir[dirOf(f.path)].reads.push_back(f);
  for (const auto& f : deps.files) byDir[dirOf(f)].files.push_back(f);
  for (const auto& d : deps.directories) byDir[dirOf(d)].directories.push_back(d);
  for (const auto& m : deps.missing) byDir[m.dir].missing.push_back(m);
  for (const auto& l : deps.listings) byDir[l.dir].listings.push_back(l);
  std::vector<Blob> out;
  for (const auto& [dir, part] : byDir) {
    codec::bin::Writer w;
    codec::bin::put(w, part);
    out.push_back(blobOf("deps", w.out, build));
  }
  return out;
}

DecodedDeps decodeDepsBlob(std::string_view bytes, const std::string& build,
                           const std::string& digest) {
  DecodedDeps d;
  std::optional<std::string> raw = unpackBlob(bytes, build, "deps", digest, d.problem);
  if (!raw) return d;
  try {
    codec::bin::Reader r(*raw, "deps");
    auto deps = std::make_shared<Deps>();
    codec::bin::get(r, *deps);
    if (!r.atEnd()) r.fail("trailing bytes");
    d.deps = std::move(deps);
  } catch (const std::exception& e) {
    d.problem = e.what();
  }
  return d;
}

Deps joinDeps(const std::vector<std::shared_ptr<const Deps>>& parts) {
  Deps out;
  for (const auto& p : parts) {
    out.reads.insert(out.reads.end(), p->reads.begin(), p->reads.end());
    out.files.insert(out.files.end(), p->files.begin(), p->files.end());
    out.directories.insert(out.directories.end(), p->directories.begin(), p->directories.end());
    out.missing.insert(out.missing.end(), p->missing.begin(), p->missing.end());
    out.listings.insert(out.listings.end(), p->listings.begin(), p->listings.end());
  }
  // Back in the order deps.h gives them, that of the parse's record (paths and directories
  // are unique in each list).
  auto byPath = [](const auto& a, const auto& b) { return a.path < b.path; };
  auto byDir = [](const auto& a, const auto& b) { return a.dir < b.dir; };
  std::sort(out.reads.begin(), out.reads.end(), byPath);
  std::sort(out.files.begin(), out.files.end());
  std::sort(out.directories.begin(), out.directories.end());
  std::sort(out.missing.begin(), out.missing.end(), byDir);
  std::sort(out.listings.begin(), out.listings.end(), byDir);
  return out;
}

}  // namespace gridlock::cache
