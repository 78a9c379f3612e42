#include "cache/entry.h"

#include "cache/entry_format.h"
#include "cache/packed.h"
#include "facts/binary_codec.h"
#include "facts/facts_codec.h"
#include "support/file_io.h"

#include <llvm/Support/xxhash.h>

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
  v("ctime_ns", x.ctimeNs);
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

std::string blobDigest(const std::string& build, const std::string& kind, std::string_view raw) {
  std::string keyed = build + "\n" + kind + "\n";
  keyed.append(raw);
  return support::md5Hex(keyed);
}

Blob blobOf(const std::string& kind, std::string raw, const std::string& build) {
  std::string digest = blobDigest(build, kind, raw);
  return {std::move(digest), kind, std::move(raw)};
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
  Unpacked u = unpack(bytes.substr(nl + 1), /*checksum=*/false);
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

}  // namespace

std::string Blob::bytes() const {
  return kBlobMagic + kind + "\n" + pack(raw, /*checksum=*/false, /*smallest=*/true);
}

bool listEndsAt(std::string_view digest) {
  return llvm::xxh3_64bits(digest) % kDigestsPerList == 0;
}

namespace {

std::string encodeList(const std::vector<std::string>& digests) {
  codec::bin::Writer w;
  w.varint(digests.size());
  for (const auto& d : digests) w.bytes(d);
  return w.out;
}

// `digests` as list blobs; their digests go to `names`.
void cutLists(const std::vector<std::string>& digests, const std::string& build,
              std::vector<std::string>& names, std::vector<Blob>& out) {
  std::vector<std::string> run;
  auto flush = [&] {
    out.push_back(blobOf("list", encodeList(run), build));
    names.push_back(out.back().digest);
    run.clear();
  };
  for (const auto& d : digests) {
    run.push_back(d);
    if (listEndsAt(d)) flush();
  }
  if (!run.empty()) flush();
}

}  // namespace

std::vector<Blob> nameBlobs(Entry& e, const std::string& build) {
  std::vector<std::string> facts;
  for (const auto& f : e.byFile.files) facts.push_back(f.digest);
  std::vector<Blob> out;
  e.factsLists.clear();
  e.depsLists.clear();
  cutLists(facts, build, e.factsLists, out);
  cutLists(e.depsDigests, build, e.depsLists, out);
  return out;
}

std::string encodeEntry(const Entry& e, const std::string& build) {
  codec::bin::Writer w;
  // The lists first: eviction reads no further.
  w.varint(e.factsLists.size() + e.depsLists.size());
  for (const auto& d : e.factsLists) w.bytes(d);
  for (const auto& d : e.depsLists) w.bytes(d);
  w.varint(e.factsLists.size());
  w.bytes(e.slot);
  w.bytes(e.rulesDigest);
  w.bytes(e.command);
  w.bytes(e.links);
  facts::putTuFacts(w, e.facts);
  facts::putRuns(w, e.byFile.runs);
  return kEntryMagic + "\n" + build + "\n" + pack(w.out);
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
  if (!lines[0].starts_with(kEntryMarker)) return corrupt("not a gridlock cache entry");
  if (lines[0] != kEntryMagic || lines[1] != build) {
    d.status = Decoded::Status::Foreign;
    d.problem = lines[0] != kEntryMagic ? "entry format " + lines[0] : "written by " + lines[1];
    return d;
  }
  Unpacked u = unpack(rest);
  if (!u.ok) return corrupt(u.problem);
  try {
    codec::bin::Reader r(u.raw, "entry");
    std::vector<std::string> lists = readDigests(r);
    size_t facts = r.varint();
    if (facts > lists.size()) r.fail("more facts lists than lists");
    d.entry.factsLists.assign(lists.begin(), lists.begin() + facts);
    d.entry.depsLists.assign(lists.begin() + facts, lists.end());
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

DecodedList decodeListBlob(std::string_view bytes, const std::string& build,
                           const std::string& digest) {
  DecodedList d;
  std::optional<std::string> raw = unpackBlob(bytes, build, "list", digest, d.problem);
  if (!raw) return d;
  try {
    d.digests = std::make_shared<std::vector<std::string>>(listOf(*raw));
  } catch (const std::exception& e) {
    d.problem = e.what();
  }
  return d;
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

bool endsDepsBlob(std::string_view name) { return llvm::xxh3_64bits(name) % kDepsPerBlob == 0; }

namespace {

// The directory a dependency is in: what groups dependencies into blobs.
std::string dirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// One directory's dependencies in blobs. Most units read a different part of a large directory
// (the C++ library's, a project's include directory) and look up different missing names in
// it: one blob for all of it would be stored again for each part. Cut where a dependency's
// name alone says, a part shares the blobs of the runs it has in common with another, and
// differs only in the blob around each dependency one has and the other has not.
std::vector<Deps> splitDirectory(const Deps& dir) {
  size_t count = dir.reads.size() + dir.files.size() + dir.directories.size() + dir.listings.size();
  for (const auto& m : dir.missing) count += std::max<size_t>(m.names.size(), 1);
  if (count <= kWholeDirectory) return {dir};
  std::vector<Deps> out(1);
  auto after = [&](std::string_view name) {
    if (endsDepsBlob(name)) out.emplace_back();
  };
  for (const auto& r : dir.reads) {
    out.back().reads.push_back(r);
    after(r.path);
  }
  for (const auto& f : dir.files) {
    out.back().files.push_back(f);
    after(f);
  }
  for (const auto& d : dir.directories) {
    out.back().directories.push_back(d);
    after(d);
  }
  // Its missing names go in runs, each with the directory's stamp: the check of a run holds
  // for its names.
  for (const auto& m : dir.missing) {
    if (m.names.empty()) {  // not recorded so, but a record is never dropped
      out.back().missing.push_back(m);
      after(m.dir);
    }
    for (const auto& name : m.names) {
      std::vector<Missing>& missing = out.back().missing;
      if (missing.empty() || missing.back().dir != m.dir) {
        Missing run = m;
        run.names.clear();
        missing.push_back(std::move(run));
      }
      missing.back().names.push_back(name);
      after(m.dir + "/" + name);
    }
  }
  for (const auto& l : dir.listings) {
    out.back().listings.push_back(l);
    after(l.dir);
  }
  const Deps& last = out.back();
  if (out.size() > 1 && last.reads.empty() && last.files.empty() && last.directories.empty() &&
      last.missing.empty() && last.listings.empty())
    out.pop_back();
  return out;
}

}  // namespace

std::vector<Blob> depsBlobs(const Deps& deps, const std::string& build) {
  std::map<std::string, Deps> byDir;
  for (const auto& f : deps.reads) byDir[dirOf(f.path)].reads.push_back(f);
  for (const auto& f : deps.files) byDir[dirOf(f)].files.push_back(f);
  for (const auto& d : deps.directories) byDir[dirOf(d)].directories.push_back(d);
  for (const auto& m : deps.missing) byDir[m.dir].missing.push_back(m);
  for (const auto& l : deps.listings) byDir[l.dir].listings.push_back(l);
  std::vector<Blob> out;
  for (const auto& [dir, whole] : byDir)
    for (const Deps& part : splitDirectory(whole)) {
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
  // A directory's missing names, split in runs across blobs, as one record again.
  std::vector<Missing> missing;
  for (auto& m : out.missing)
    if (!missing.empty() && missing.back().dir == m.dir)
      missing.back().names.insert(missing.back().names.end(), m.names.begin(), m.names.end());
    else
      missing.push_back(std::move(m));
  for (auto& m : missing) std::sort(m.names.begin(), m.names.end());
  out.missing = std::move(missing);
  return out;
}

}  // namespace gridlock::cache
