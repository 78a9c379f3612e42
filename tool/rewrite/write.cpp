#include "rewrite/write.h"

#include "support/atomic_write.h"

#include <llvm/Support/FileSystem.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace gridlock::rewrite {

void writeAll(const Prepared& p) {
  auto tmpOf = [](const std::string& path) { return support::tempPathFor(path); };
  auto removeTemps = [&] {
    for (const auto& c : p.changes) std::remove(tmpOf(c.path).c_str());
  };
  for (const auto& c : p.changes) {
    std::string tmp = tmpOf(c.path);
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << c.after;
    if (!out.flush()) {
      out.close();
      removeTemps();
      throw std::runtime_error(c.file + ": cannot write; nothing was changed");
    }
    out.close();
    if (auto perms = llvm::sys::fs::getPermissions(c.path))
      (void)llvm::sys::fs::setPermissions(tmp, *perms);
  }
  for (size_t i = 0; i < p.changes.size(); ++i) {
    const FileChange& c = p.changes[i];
    if (std::rename(tmpOf(c.path).c_str(), c.path.c_str()) == 0) continue;
    // Put back what was already replaced, so the tree is as it was.
    for (size_t j = 0; j < i; ++j) {
      const FileChange& done = p.changes[j];
      std::string tmp = tmpOf(done.path);
      std::ofstream back(tmp, std::ios::binary | std::ios::trunc);
      back << done.before;
      back.close();
      std::rename(tmp.c_str(), done.path.c_str());
    }
    removeTemps();
    throw std::runtime_error(c.file + ": cannot replace; every file was restored");
  }
}

}  // namespace gridlock::rewrite
