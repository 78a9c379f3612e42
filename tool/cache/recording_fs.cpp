#include "cache/recording_fs.h"

#include "cache/stamp_table.h"

#include "support/file_io.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <set>

namespace gridlock::cache {

namespace vfs = llvm::vfs;

struct Recorder::State {
  std::chrono::system_clock::time_point start;
  llvm::IntrusiveRefCntPtr<vfs::FileSystem> base;
  std::map<std::string, ReadFile> reads;
  std::set<std::string> files, directories, missing;
  std::map<std::string, std::string> listings;
};

namespace {

// A file whose first read is recorded: its stamp taken before the bytes are read (an edit
// during the read then changes the stamp), its digest from the very bytes the compiler got.
class RecordingFile : public vfs::File {
 public:
  RecordingFile(std::unique_ptr<vfs::File> inner, std::string path,
                std::shared_ptr<Recorder::State> state)
      : inner_(std::move(inner)), path_(std::move(path)), state_(std::move(state)) {}

  llvm::ErrorOr<vfs::Status> status() override { return inner_->status(); }
  llvm::ErrorOr<std::string> getName() override { return inner_->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name,
                                                               int64_t size, bool nullTerminated,
                                                               bool isVolatile) override {
    llvm::ErrorOr<vfs::Status> before = inner_->status();
    auto buffer = inner_->getBuffer(name, size, nullTerminated, isVolatile);
    if (buffer && before) {
      ReadFile r;
      r.path = path_;
      r.stamp = stampOf(*before, path_);
      llvm::StringRef bytes = (*buffer)->getBuffer();
      r.digest = support::md5Hex({bytes.data(), bytes.size()});
      state_->reads[path_] = std::move(r);
    }
    return buffer;
  }
  std::error_code close() override { return inner_->close(); }

 private:
  std::unique_ptr<vfs::File> inner_;
  std::string path_;
  std::shared_ptr<Recorder::State> state_;
};

// Replays a listing taken whole when the directory was opened.
class ListedDir : public vfs::detail::DirIterImpl {
 public:
  explicit ListedDir(std::vector<vfs::directory_entry> entries) : entries_(std::move(entries)) {
    if (!entries_.empty()) CurrentEntry = entries_[0];
  }
  std::error_code increment() override {
    CurrentEntry = ++next_ < entries_.size() ? entries_[next_] : vfs::directory_entry();
    return {};
  }

 private:
  std::vector<vfs::directory_entry> entries_;
  size_t next_ = 0;
};

class RecordingFileSystem : public vfs::ProxyFileSystem {
 public:
  RecordingFileSystem(llvm::IntrusiveRefCntPtr<vfs::FileSystem> base,
                      std::shared_ptr<Recorder::State> state)
      : ProxyFileSystem(std::move(base)), state_(std::move(state)) {}

  llvm::ErrorOr<vfs::Status> status(const llvm::Twine& path) override {
    auto s = getUnderlyingFS().status(path);
    std::string abs = absolute(path);
    if (!s)
      state_->missing.insert(abs);
    else if (s->isDirectory())
      state_->directories.insert(abs);
    else
      state_->files.insert(abs);
    return s;
  }

  bool exists(const llvm::Twine& path) override { return static_cast<bool>(status(path)); }

  llvm::ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const llvm::Twine& path) override {
    auto f = getUnderlyingFS().openFileForRead(path);
    std::string abs = absolute(path);
    if (!f) {
      state_->missing.insert(abs);
      return f;
    }
    state_->files.insert(abs);
    return std::unique_ptr<vfs::File>(std::make_unique<RecordingFile>(std::move(*f), abs, state_));
  }

  vfs::directory_iterator dir_begin(const llvm::Twine& dir, std::error_code& ec) override {
    std::string abs = absolute(dir);
    std::vector<vfs::directory_entry> entries;
    vfs::directory_iterator it = getUnderlyingFS().dir_begin(dir, ec);
    if (ec) {
      state_->missing.insert(abs);
      return it;
    }
    for (; !ec && it != vfs::directory_iterator(); it.increment(ec)) entries.push_back(*it);
    if (ec) return {};
    state_->listings[abs] = listingDigest(entries);
    return vfs::directory_iterator(std::make_shared<ListedDir>(std::move(entries)));
  }

 private:
  std::string absolute(const llvm::Twine& path) const {
    llvm::SmallString<256> p;
    path.toVector(p);
    getUnderlyingFS().makeAbsolute(p);
    return std::string(p);
  }

  std::shared_ptr<Recorder::State> state_;
};

}  // namespace

Stamp stampOf(const vfs::Status& s, const std::string& path) {
  Stamp st;
  st.size = static_cast<std::int64_t>(s.getSize());
  st.mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   s.getLastModificationTime().time_since_epoch())
                   .count();
  st.device = s.getUniqueID().getDevice();
  st.inode = s.getUniqueID().getFile();
  struct stat raw;
  if (::stat(path.c_str(), &raw) == 0 && raw.st_dev == st.device && raw.st_ino == st.inode)
    st.ctimeNs = nanoseconds(raw.st_ctim);
  return st;
}

std::string listingDigest(std::vector<vfs::directory_entry> entries) {
  std::vector<std::string> names;
  for (const auto& e : entries)
    names.push_back(llvm::sys::path::filename(e.path()).str() + "\t" +
                    std::to_string(static_cast<int>(e.type())));
  std::sort(names.begin(), names.end());
  std::string all;
  for (const auto& n : names) all += n + "\n";
  return support::md5Hex(all);
}

Recorder::Recorder() : state_(std::make_shared<State>()) {
  state_->start = std::chrono::system_clock::now();
}

Recorder::~Recorder() = default;

llvm::IntrusiveRefCntPtr<vfs::FileSystem> Recorder::wrap(
    llvm::IntrusiveRefCntPtr<vfs::FileSystem> base) {
  state_->base = base;
  return llvm::makeIntrusiveRefCnt<RecordingFileSystem>(std::move(base), state_);
}

Deps Recorder::finish() {
  State& s = *state_;
  Deps d;
  for (auto& [path, r] : s.reads) {
    r.racy = isRacy(r.stamp, s.start);
    d.reads.push_back(r);
  }
  for (const auto& f : s.files)
    if (!s.reads.count(f)) d.files.push_back(f);
  d.directories.assign(s.directories.begin(), s.directories.end());
  std::map<std::string, std::vector<std::string>> byDir;
  for (const auto& m : s.missing)
    byDir[llvm::sys::path::parent_path(m).str()].push_back(llvm::sys::path::filename(m).str());
  for (auto& [dir, names] : byDir) {
    Missing m;
    m.dir = dir;
    m.names = std::move(names);
    if (s.base) {
      if (auto st = s.base->status(dir)) {
        m.dirExists = true;
        m.dirStamp = stampOf(*st, dir);
        m.racy = isRacy(m.dirStamp, s.start);
      }
    }
    d.missing.push_back(std::move(m));
  }
  for (const auto& [dir, digest] : s.listings) d.listings.push_back({dir, digest});
  return d;
}

}  // namespace gridlock::cache
