#include "cache/stamp_table.h"

#include <sys/stat.h>

#include <algorithm>
#include <charconv>

namespace gridlock::cache {
namespace {

// One number and the separator after it; false when there is none.
template <typename T>
bool number(std::string_view& bytes, T& out, char end) {
  auto [p, ec] = std::from_chars(bytes.data(), bytes.data() + bytes.size(), out);
  if (ec != std::errc() || p == bytes.data() + bytes.size() || *p != end) return false;
  bytes.remove_prefix(p - bytes.data() + 1);
  return true;
}

}  // namespace

bool isRacy(const Stamp& s, std::chrono::system_clock::time_point start) {
  // File systems stamp with a coarse clock (a kernel tick; a second on some): anything
  // modified within two seconds of the parse's start could be modified again unseen.
  auto margin = std::chrono::seconds(2);
  auto startNs =
      std::chrono::duration_cast<std::chrono::nanoseconds>((start - margin).time_since_epoch());
  return std::max(s.mtimeNs, s.ctimeNs) >= startNs.count();
}

std::int64_t nanoseconds(const struct timespec& t) {
  return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

std::optional<Stamp> statFile(const std::string& path) {
  struct stat raw;
  if (::stat(path.c_str(), &raw) != 0 || !S_ISREG(raw.st_mode)) return std::nullopt;
  Stamp s;
  s.size = raw.st_size;
  s.mtimeNs = nanoseconds(raw.st_mtim);
  s.device = raw.st_dev;
  s.inode = raw.st_ino;
  s.ctimeNs = nanoseconds(raw.st_ctim);
  return s;
}

// A record: "PATHLEN SIZE MTIME DEVICE INODE CTIME RACY KEYLEN\n" PATH KEY "\n". Lengths, not
// separators, delimit the path, which may hold any byte.
std::string StampTable::encode() const {
  std::string out;
  for (const auto& [path, r] : records_) {
    const Stamp& s = r.stamp;
    out += std::to_string(path.size()) + ' ' + std::to_string(s.size) + ' ' +
           std::to_string(s.mtimeNs) + ' ' + std::to_string(s.device) + ' ' +
           std::to_string(s.inode) + ' ' + std::to_string(s.ctimeNs) + ' ' + (r.racy ? '1' : '0') +
           ' ' + std::to_string(r.key.size()) + '\n' + path + r.key + '\n';
  }
  return out;
}

StampTable StampTable::decode(std::string_view bytes) {
  StampTable t;
  while (!bytes.empty()) {
    size_t pathLen = 0, keyLen = 0;
    int racy = 0;
    StampedKey r;
    Stamp& s = r.stamp;
    if (!number(bytes, pathLen, ' ') || !number(bytes, s.size, ' ') ||
        !number(bytes, s.mtimeNs, ' ') || !number(bytes, s.device, ' ') ||
        !number(bytes, s.inode, ' ') || !number(bytes, s.ctimeNs, ' ') ||
        !number(bytes, racy, ' ') || !number(bytes, keyLen, '\n'))
      break;
    if (racy > 1 || pathLen > bytes.size() || keyLen > bytes.size() - pathLen ||
        bytes.size() - pathLen - keyLen < 1 || bytes[pathLen + keyLen] != '\n')
      break;
    r.racy = racy == 1;
    r.key = std::string(bytes.substr(pathLen, keyLen));
    t.records_[std::string(bytes.substr(0, pathLen))] = std::move(r);
    bytes.remove_prefix(pathLen + keyLen + 1);
  }
  return t;
}

const StampedKey* StampTable::find(const std::string& path) const {
  auto it = records_.find(path);
  return it == records_.end() ? nullptr : &it->second;
}

const std::string* StampTable::trusted(const std::string& path, const Stamp& now) const {
  const StampedKey* r = find(path);
  return r && !r->racy && r->stamp == now ? &r->key : nullptr;
}

void StampTable::record(const std::string& path, const Stamp& stamp, std::string key,
                        std::chrono::system_clock::time_point start) {
  records_[path] = {stamp, isRacy(stamp, start), std::move(key)};
}

}  // namespace gridlock::cache
