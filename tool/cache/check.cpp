#include "cache/check.h"

#include "cache/recording_fs.h"
#include "cache/stamp_table.h"
#include "support/file_io.h"

#include <llvm/Support/MemoryBuffer.h>

#include <atomic>

namespace gridlock::cache {

namespace {
std::uint64_t nextViewId() {
  static std::atomic<std::uint64_t> next{0};
  return ++next;
}
}  // namespace

FileView::FileView(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs)
    : fs_(std::move(fs)), start_(std::chrono::system_clock::now()), id_(nextViewId()) {}

FileView::Info FileView::info(const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = infos_.find(path);
    if (it != infos_.end()) return it->second;
  }
  Info i;
  if (auto s = fs_->status(path)) {
    i.kind = s->isDirectory() ? Kind::Directory : Kind::File;
    i.stamp = stampOf(*s, path);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return infos_.emplace(path, i).first->second;
}

std::optional<std::string> FileView::digest(const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = digests_.find(path);
    if (it != digests_.end()) return it->second;
  }
  std::optional<std::string> d;
  if (auto buffer = fs_->getBufferForFile(path, -1, /*RequiresNullTerminator=*/false)) {
    llvm::StringRef bytes = (*buffer)->getBuffer();
    d = support::md5Hex({bytes.data(), bytes.size()});
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return digests_.emplace(path, d).first->second;
}

std::optional<std::string> FileView::listing(const std::string& dir) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = listings_.find(dir);
    if (it != listings_.end()) return it->second;
  }
  std::optional<std::string> d;
  std::error_code ec;
  std::vector<llvm::vfs::directory_entry> entries;
  llvm::vfs::directory_iterator it = fs_->dir_begin(dir, ec);
  for (; !ec && it != llvm::vfs::directory_iterator(); it.increment(ec)) entries.push_back(*it);
  if (!ec) d = listingDigest(std::move(entries));
  std::lock_guard<std::mutex> lock(mutex_);
  return listings_.emplace(dir, d).first->second;
}

namespace {

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() || dir.back() == '/' ? dir + name : dir + "/" + name;
}

}  // namespace

CheckResult check(const Deps& deps, FileView& view, const std::string& mainFile,
                  const std::function<std::string(const std::string&)>& display) {
  CheckResult r;
  r.deps = deps;
  auto stale = [&](std::string why) {
    r.fresh = false;
    r.reason = std::move(why);
    return r;
  };
  auto name = [&](const std::string& path) {
    return path == mainFile ? std::string("source") : "header " + display(path);
  };

  // The source first: its change is the likeliest, and the clearest reason to give.
  std::vector<size_t> order;
  for (size_t i = 0; i < deps.reads.size(); ++i)
    if (deps.reads[i].path == mainFile)
      order.insert(order.begin(), i);
    else
      order.push_back(i);
  for (size_t i : order) {
    const ReadFile& f = deps.reads[i];
    FileView::Info now = view.info(f.path);
    if (now.kind != FileView::Kind::File) return stale(name(f.path) + " removed");
    if (now.stamp == f.stamp && !f.racy) continue;
    std::optional<std::string> d = view.digest(f.path);
    if (!d) return stale(name(f.path) + " unreadable");
    if (*d != f.digest) return stale(name(f.path) + " changed");
    ReadFile& again = r.deps.reads[i];
    again.racy = isRacy(now.stamp, view.start());
    if (again.stamp != now.stamp || again.racy != f.racy) r.restamp = true;
    again.stamp = now.stamp;
  }
  for (const auto& f : deps.files)
    if (view.info(f).kind != FileView::Kind::File) return stale(display(f) + " removed");
  for (const auto& d : deps.directories)
    if (view.info(d).kind != FileView::Kind::Directory) return stale(display(d) + " removed");
  for (size_t i = 0; i < deps.missing.size(); ++i) {
    const Missing& m = deps.missing[i];
    FileView::Info dir = view.info(m.dir);
    bool exists = dir.kind != FileView::Kind::Missing;
    // An unchanged directory has had nothing created in it; a missing one still has nothing.
    if (exists == m.dirExists && (!exists || (dir.stamp == m.dirStamp && !m.racy))) continue;
    for (const auto& n : m.names) {
      FileView::Kind now = view.info(join(m.dir, n)).kind;
      // A directory the compiler did not find stopped its search there: what it would look
      // for inside is unknown, so any directory created in its place counts.
      if (now != FileView::Kind::Missing)
        return stale(
            std::string(now == FileView::Kind::Directory ? "new directory " : "new file ") +
            display(join(m.dir, n)) + " on the search path");
    }
    Missing& again = r.deps.missing[i];
    again.dirExists = exists;
    again.dirStamp = exists ? dir.stamp : Stamp{};
    again.racy = exists && isRacy(dir.stamp, view.start());
    r.restamp = true;
  }
  for (const auto& l : deps.listings) {
    std::optional<std::string> d = view.listing(l.dir);
    if (!d || *d != l.digest) return stale("directory " + display(l.dir) + " changed");
  }
  r.fresh = true;
  return r;
}

}  // namespace gridlock::cache
