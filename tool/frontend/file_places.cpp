#include "frontend/file_places.h"

#include "support/confine.h"
#include "support/paths.h"

namespace gridlock::frontend {

std::string realPath(const std::string& path) { return support::realPath(path); }

bool relativeTo(const std::string& root, const std::string& path, std::string& out) {
  return support::relativeTo(root, path, out);
}

bool rootRelative(const std::string& root, const RootAliases* aliases, const std::string& real,
                  std::string& out) {
  if (relativeTo(root, real, out)) return true;
  if (!aliases) return false;
  auto it = aliases->find(real);
  if (it == aliases->end()) return false;
  out = it->second;
  return true;
}

const FilePlaces::Info& FilePlaces::at(clang::SourceLocation loc) {
  return of(sm_.getFileID(sm_.getExpansionLoc(loc)));
}

const FilePlaces::Info& FilePlaces::of(clang::FileID fid) {
  if (fid.isInvalid()) return none_;
  auto it = cache_.find(fid);
  if (it != cache_.end()) return it->second;
  Info info;
  if (auto entry = sm_.getFileEntryRefForID(fid)) {
    // Names are relative to the compile command's directory; the FileManager knows it.
    llvm::StringRef canonical = sm_.getFileManager().getCanonicalName(*entry);
    info.underRoot = rootRelative(root_, aliases_, canonical.str(), info.path);
    for (size_t p = 0; p < rules_.packs().size(); ++p) {
      info.perPack.push_back(rules_.place(info.path, info.underRoot, p));
      if (info.perPack.back() != rules::Placement::Out) info.interest = true;
    }
  }
  return cache_.try_emplace(fid, std::move(info)).first->second;
}

}  // namespace gridlock::frontend
