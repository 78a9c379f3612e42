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

const std::string kMagic = "gridlock-cache-entry 3";

}  // namespace

std::string encodeEntry(const Entry& e, const std::string& build) {
  codec::bin::Writer w;
  w.bytes(e.slot);
  w.bytes(e.rulesDigest);
  w.bytes(e.command);
  w.bytes(e.links);
  codec::bin::put(w, e.deps);
  facts::putTuFacts(w, e.facts);
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
  std::string_view rest = bytes;
  std::string lines[2];
  for (auto& line : lines) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return corrupt("truncated header");
    line = std::string(rest.substr(0, nl));
    rest.remove_prefix(nl + 1);
  }
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
    d.entry.slot = r.bytes();
    d.entry.rulesDigest = r.bytes();
    d.entry.command = r.bytes();
    d.entry.links = r.bytes();
    codec::bin::get(r, d.entry.deps);
    facts::getTuFacts(r, d.entry.facts);
    if (!r.atEnd()) r.fail("trailing bytes");
  } catch (const std::exception& e) {
    return corrupt(e.what());
  }
  d.status = Decoded::Status::Ok;
  return d;
}

}  // namespace gridlock::cache
